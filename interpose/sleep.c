/* Sleeps park the G on a timer instead of blocking the M.  A relative
 * sleep is measured on CLOCK_MONOTONIC (the kernel's relative sleeps do
 * not move with clock changes either); an absolute CLOCK_REALTIME sleep
 * follows the realtime clock (shim/timer.c). */
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "compat/debug.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/cpuclock.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/sys.h"
#include "shim/syscall.h"
#include "shim/timer.h"

GMP_EXPORT int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req, struct timespec *rem)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	if (req->tv_nsec < 0 || req->tv_nsec >= 1000000000L || req->tv_sec < 0)
		return EINVAL;
	if (clk == CLOCK_THREAD_CPUTIME_ID)
		return EINVAL; /* the kernel's answer for the caller's own CPU clock */
	if (gmp_cpuclock_ours(clk)) {
		/* another thread's: the kernel would sleep until it has run so long */
		gmp_unsupported("clock_nanosleep on another thread's CPU clock");
		return ENOTSUP;
	}
	/* Other clocks (BOOTTIME, TAI, the process's CPU clock; EINVAL or
	 * EOPNOTSUPP for the rest) are the kernel's, the M blocked in the
	 * call; so is a foreign thread's sleep (shim/foreign.c): its own OS
	 * thread, with the kernel's signal behaviour. */
	if ((clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC) || getg() == NULL) {
		long r = gmp_blocking_syscall6(SYS_clock_nanosleep, clk, flags, (long)req, (long)rem, 0, 0);
		return r < 0 ? (int)-r : 0;
	}
	int64_t deadline;
	if (flags & TIMER_ABSTIME) {
		int err = 0;
		deadline = gmp_abs_deadline(clk, req, &err);
		if (err)
			return err;
	} else {
		deadline = req->tv_sec > GMP_FOREVER_SEC ? -1
							  : gmp_nanotime() + req->tv_sec * 1000000000LL + req->tv_nsec;
	}
	if (gmp_sleep_until(deadline) != EINTR)
		return 0;
	/* Interrupted (gmp_semq_interrupt): as the kernel, report what was
	 * left of a relative sleep and leave rem alone for an absolute one. */
	if (rem && !(flags & TIMER_ABSTIME)) {
		int64_t left = deadline < 0 ? 0 : gmp_deadline_left(deadline);
		if (left < 0)
			left = 0;
		/* A sleep taken as forever has lost nothing that shows. */
		*rem = deadline < 0 ? *req : (struct timespec){ left / 1000000000LL, left % 1000000000LL };
	}
	return EINTR;
}

GMP_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
	GMP_CANCEL_POINT;
	int err = clock_nanosleep(CLOCK_REALTIME, 0, req, rem);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

GMP_EXPORT int usleep(useconds_t us)
{
	GMP_CANCEL_POINT;
	struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000 };
	return nanosleep(&ts, NULL);
}

GMP_EXPORT unsigned int sleep(unsigned int s)
{
	GMP_CANCEL_POINT;
	struct timespec ts = { s, 0 }, rem = { 0, 0 };
	if (nanosleep(&ts, &rem) == 0)
		return 0;
	/* As glibc: the whole seconds not yet slept. */
	return (unsigned int)rem.tv_sec;
}
