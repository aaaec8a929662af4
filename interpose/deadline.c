#include <errno.h>

#include "export.h"
#include "shim/runtime.h"

int64_t gmp_abs_deadline(clockid_t clk, const struct timespec *abstime, int *err)
{
	if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000L) {
		*err = EINVAL;
		return -1;
	}
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) {
		*err = EINVAL;
		return -1;
	}
	struct timespec now;
	clock_gettime(clk, &now);
	int64_t left = (abstime->tv_sec - now.tv_sec) * 1000000000LL + (abstime->tv_nsec - now.tv_nsec);
	int64_t mono = gmp_nanotime();
	if (left < 0)
		left = 0;
	return mono + left;
}
