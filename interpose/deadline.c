#include <errno.h>

#include "export.h"
#include "shim/netpoll.h"
#include "shim/timer.h"

int64_t gmp_abs_deadline(clockid_t clk, const struct timespec *abstime, int *err)
{
	if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L) {
		*err = EINVAL;
		return -1;
	}
	if (clk == CLOCK_MONOTONIC) {
		struct timespec now;
		clock_gettime(clk, &now);
		if (abstime->tv_sec - now.tv_sec > GMP_FOREVER_SEC)
			return -1;
		int64_t left = (abstime->tv_sec - now.tv_sec) * 1000000000LL + (abstime->tv_nsec - now.tv_nsec);
		return gmp_nanotime() + (left < 0 ? 0 : left);
	}
	if (clk != CLOCK_REALTIME) {
		*err = EINVAL;
		return -1;
	}
	/* Kept on CLOCK_REALTIME: it must fire when that clock reaches it,
	 * however the clock is set meanwhile.  The poller learns of clock
	 * changes from here on (set up here, outside every runtime lock). */
	gmp_netpoll_watch_clock();
	if (abstime->tv_sec < 0)
		return GMP_DEADLINE_REALTIME; /* long past */
	if (abstime->tv_sec >= (GMP_DEADLINE_REALTIME - 1) / 1000000000LL)
		return -1; /* beyond year 2116: never */
	return GMP_DEADLINE_REALTIME | (abstime->tv_sec * 1000000000LL + abstime->tv_nsec);
}
