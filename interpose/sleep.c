/* Sleeps park the G on a timer instead of blocking the M. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "shim/runtime.h"
#include "shim/sema.h"

GMP_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	gmp_ensure_init();
	if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0)
		return EINVAL;
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) {
		gmp_unsupported("clock_nanosleep on a clock other than REALTIME or MONOTONIC");
		return ENOTSUP;
	}
	int64_t deadline;
	if (flags & TIMER_ABSTIME) {
		int err = 0;
		deadline = gmp_abs_deadline(clk, req, &err);
		if (err)
			return err;
	} else {
		deadline = gmp_nanotime() + req->tv_sec * 1000000000LL + req->tv_nsec;
	}
	if (gmp_sleep_until(deadline) == EINTR) {
		/* A handler ran: report the time left, as the kernel does. */
		if (rem && !(flags & TIMER_ABSTIME)) {
			int64_t left = deadline - gmp_nanotime();
			if (left < 0)
				left = 0;
			*rem = (struct timespec){ left / 1000000000LL, left % 1000000000LL };
		}
		return EINTR;
	}
	if (rem && !(flags & TIMER_ABSTIME))
		*rem = (struct timespec){ 0, 0 };
	return 0;
}

GMP_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	int err = clock_nanosleep(CLOCK_REALTIME, 0, req, rem);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

GMP_EXPORT int usleep(useconds_t us)
{
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };
	return nanosleep(&ts, NULL);
}

GMP_EXPORT unsigned int sleep(unsigned int s)
{
	struct timespec ts = { s, 0 }, rem = { 0, 0 };
	if (nanosleep(&ts, &rem) < 0)
		return (unsigned int)rem.tv_sec + (rem.tv_nsec > 0);
	return 0;
}
