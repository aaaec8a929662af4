/* pthread mutexes: POSIX types and error codes over the shim's lock word.
 * Process-shared and robust mutexes stay glibc's, on kernel futexes. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>

#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/runtime.h"

int gmp_mutex_trylock(uint32_t *w);
int gmp_mutex_lock(uint32_t *w, int64_t deadline);
void gmp_mutex_unlock(uint32_t *w);

#define D(m) ((m)->__data)

static inline int kernel_kind(pthread_mutex_t *m)
{
	return (D(m).__kind & GMP_MUTEX_KERNEL_BITS) != 0;
}

GMP_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	gmp_ensure_init();
	int type = PTHREAD_MUTEX_DEFAULT, pshared = PTHREAD_PROCESS_PRIVATE;
	int robust = PTHREAD_MUTEX_STALLED, protocol = PTHREAD_PRIO_NONE;
	if (attr) {
		pthread_mutexattr_gettype(attr, &type);
		pthread_mutexattr_getpshared(attr, &pshared);
		pthread_mutexattr_getrobust(attr, &robust);
		pthread_mutexattr_getprotocol(attr, &protocol);
	}
	if (protocol != PTHREAD_PRIO_NONE) {
		gmp_unsupported("pthread_mutex_init: priority inheritance/protection mutexes (ENOTSUP)");
		return ENOTSUP;
	}
	if (pshared == PTHREAD_PROCESS_SHARED || robust == PTHREAD_MUTEX_ROBUST)
		return gmp_real.pthread_mutex_init(m, attr);
	*m = (pthread_mutex_t){ 0 };
	D(m).__kind = type;
	return 0;
}

static int lock_common(pthread_mutex_t *m, int64_t deadline)
{
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	int self = getg()->tid;
	if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
		if (D(m).__owner == self) {
			if (type == PTHREAD_MUTEX_ERRORCHECK)
				return EDEADLK;
			if (D(m).__count == UINT_MAX)
				return EAGAIN;
			D(m).__count++;
			return 0;
		}
	}
	int err = gmp_mutex_lock((uint32_t *)&D(m).__lock, deadline);
	if (err)
		return err;
	D(m).__owner = self;
	D(m).__count = 1;
	return 0;
}

GMP_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (kernel_kind(m) || !gmp_initialized)
		return gmp_initialized ? gmp_real.pthread_mutex_lock(m) : 0;
	return lock_common(m, -1);
}

GMP_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	gmp_ensure_init();
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_timedlock(m, abstime);
	int err = 0;
	int64_t deadline = gmp_abs_deadline(CLOCK_REALTIME, abstime, &err);
	return err ? err : lock_common(m, deadline);
}

GMP_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abstime)
{
	gmp_ensure_init();
	if (kernel_kind(m)) {
		gmp_unsupported("pthread_mutex_clocklock on a process-shared or robust mutex");
		return EINVAL;
	}
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	return err ? err : lock_common(m, deadline);
}

GMP_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	gmp_ensure_init();
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_trylock(m);
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	int self = getg()->tid;
	if (type == PTHREAD_MUTEX_RECURSIVE && D(m).__owner == self) {
		if (D(m).__count == UINT_MAX)
			return EAGAIN;
		D(m).__count++;
		return 0;
	}
	if (gmp_mutex_trylock((uint32_t *)&D(m).__lock) != 0)
		return EBUSY;
	D(m).__owner = self;
	D(m).__count = 1;
	return 0;
}

GMP_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (kernel_kind(m) || !gmp_initialized)
		return gmp_initialized ? gmp_real.pthread_mutex_unlock(m) : 0;
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
		if (D(m).__owner != getg()->tid || D(m).__lock == 0)
			return EPERM;
		if (--D(m).__count != 0)
			return 0;
	}
	D(m).__owner = 0;
	gmp_mutex_unlock((uint32_t *)&D(m).__lock);
	return 0;
}

GMP_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_destroy(m);
	if (__atomic_load_n(&D(m).__lock, __ATOMIC_ACQUIRE) != 0)
		return EBUSY;
	D(m).__kind = -1; /* as glibc: later use gets EINVAL */
	return 0;
}

GMP_EXPORT int pthread_mutex_consistent(pthread_mutex_t *m)
{
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_consistent(m);
	return EINVAL; /* not a robust mutex */
}

/* Old entry points some libraries still call. */
GMP_EXPORT int __pthread_mutex_lock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_lock")));
GMP_EXPORT int __pthread_mutex_unlock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_unlock")));
GMP_EXPORT int __pthread_mutex_trylock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_trylock")));
GMP_EXPORT int __pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
	__attribute__((alias("pthread_mutex_init")));
GMP_EXPORT int __pthread_mutex_destroy(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_destroy")));
