#include <dlfcn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch.h"
#include "debug.h"
#include "realsym.h"

struct gmp_real gmp_real;

/* Until the lookup: the system call, since the shim's own clock_gettime
 * (interpose/clock.c) calls through this pointer. */
static int clock_gettime_syscall(clockid_t clk, struct timespec *ts)
{
	long r = gmp_arch_syscall(SYS_clock_gettime, clk, ts, 0);
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return 0;
}

/* libc's, not a sanitizer's interceptor in front of it nor ours: the
 * runtime reads the clock on g0, where TSan's would record a write to the
 * g0 stack as made by whatever G last ran there. */
int (*gmp_clock_gettime)(clockid_t, struct timespec *) = clock_gettime_syscall;

static void *need(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (f == NULL) {
		gmp_printf("gmpshim: fatal: cannot find the real %s\n", name);
		gmp_throw("symbol lookup failed");
	}
	return f;
}

void gmp_realsym_init(void)
{
#define REAL(name) gmp_real.name = need(#name)
	REAL(pthread_create);
	REAL(pthread_getattr_np);
	REAL(pthread_mutex_init);
	REAL(pthread_mutex_lock);
	REAL(pthread_mutex_trylock);
	REAL(pthread_mutex_timedlock);
	REAL(pthread_mutex_unlock);
	REAL(pthread_mutex_destroy);
	REAL(pthread_mutex_consistent);
	REAL(pthread_cond_init);
	REAL(pthread_cond_wait);
	REAL(pthread_cond_timedwait);
	REAL(pthread_cond_signal);
	REAL(pthread_cond_broadcast);
	REAL(pthread_cond_destroy);
	REAL(pthread_barrier_wait);
	REAL(pthread_barrier_destroy);
	REAL(pthread_rwlock_rdlock);
	REAL(pthread_rwlock_tryrdlock);
	REAL(pthread_rwlock_clockrdlock);
	REAL(pthread_rwlock_wrlock);
	REAL(pthread_rwlock_trywrlock);
	REAL(pthread_rwlock_clockwrlock);
	REAL(pthread_rwlock_unlock);
	REAL(pthread_rwlock_destroy);
#undef REAL
	gmp_clock_gettime = need("clock_gettime");
}

void *gmp_dlsym_next(const char *name)
{
	return need(name);
}
