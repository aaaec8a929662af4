/* Thread CPU-time clocks (shim/cpuclock.c): CLOCK_THREAD_CPUTIME_ID and
 * getrusage(RUSAGE_THREAD) would count the M, every G it ran;
 * pthread_getcpuclockid's clocks would name a TID no kernel thread has.
 * Every other clock goes straight to libc's (the vDSO), with one
 * comparison on the way. */
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cpuclock.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"
#include "shim/sys.h"

GMP_EXPORT int clock_gettime(clockid_t clk, struct timespec *ts)
{
	if (__builtin_expect(clk < 0 || clk == CLOCK_THREAD_CPUTIME_ID, 0) && gmp_cpuclock_ours(clk)) {
		int err = gmp_cpuclock_read(clk, ts);
		return err ? (errno = err, -1) : 0;
	}
	return gmp_clock_gettime(clk, ts);
}

GMP_EXPORT int clock_getres(clockid_t clk, struct timespec *res)
{
	if (clk < 0 && gmp_cpuclock_ours(clk)) {
		struct timespec now;
		int err = gmp_cpuclock_read(clk, &now);
		if (err)
			return errno = err, -1;
		clk = CLOCK_THREAD_CPUTIME_ID;
	}
	return (int)gmp_ret(gmp_syscall(SYS_clock_getres, clk, res, 0));
}

GMP_EXPORT int pthread_getcpuclockid(pthread_t t, clockid_t *clk)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	return gp ? gmp_cpuclock_id(gp, clk) : ESRCH;
}

/* The other fields stay the M's (docs/compat.md). */
GMP_EXPORT int getrusage(int who, struct rusage *ru)
{
	long r = gmp_syscall(SYS_getrusage, who, ru, 0);
	if (r == 0 && who == RUSAGE_THREAD && gmp_cpuclock_ours(CLOCK_THREAD_CPUTIME_ID))
		gmp_cpuclock_rusage(&ru->ru_utime, &ru->ru_stime);
	return (int)gmp_ret(r);
}
