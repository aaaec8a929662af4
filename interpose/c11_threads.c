/* C11 <threads.h>.  glibc implements it on its pthread code with direct
 * internal calls that no preload can see, so a thrd_create left to glibc
 * would start a kernel thread beside the runtime.  Each call here is the
 * pthread call glibc's makes, through the shim, with glibc's errno-to-
 * thrd_* mapping. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <threads.h>
#include <time.h>

#include "export.h"
#include "thread_create.h"

static int thrd_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case ENOMEM:
		return thrd_nomem;
	case ETIMEDOUT:
		return thrd_timedout;
	case EBUSY:
		return thrd_busy;
	default:
		return thrd_error;
	}
}

GMP_EXPORT int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
	pthread_t t;
	int err = gmp_create(&t, NULL, (void *(*)(void *))(void (*)(void))func, arg, true, (uintptr_t)__builtin_return_address(0));
	if (err == 0)
		*thr = t;
	return thrd_result(err);
}

GMP_EXPORT _Noreturn void thrd_exit(int res)
{
	pthread_exit((void *)(intptr_t)res);
}

GMP_EXPORT int thrd_join(thrd_t thr, int *res)
{
	void *r;
	int err = pthread_join(thr, &r);
	if (err == 0 && res)
		*res = (int)(intptr_t)r;
	return thrd_result(err);
}

GMP_EXPORT int thrd_detach(thrd_t thr)
{
	return thrd_result(pthread_detach(thr));
}

GMP_EXPORT thrd_t thrd_current(void)
{
	return pthread_self();
}

GMP_EXPORT int thrd_equal(thrd_t a, thrd_t b)
{
	return a == b;
}

GMP_EXPORT int thrd_sleep(const struct timespec *dur, struct timespec *rem)
{
	int err = clock_nanosleep(CLOCK_REALTIME, 0, dur, rem);
	return err == 0 ? 0 : err == EINTR ? -1 : -2;
}

GMP_EXPORT void thrd_yield(void)
{
	sched_yield();
}

GMP_EXPORT int mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	bool recursive = type == (mtx_plain | mtx_recursive) || type == (mtx_timed | mtx_recursive);
	pthread_mutexattr_settype(&attr, recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL);
	return thrd_result(pthread_mutex_init((pthread_mutex_t *)m, &attr));
}

GMP_EXPORT int mtx_lock(mtx_t *m)
{
	return thrd_result(pthread_mutex_lock((pthread_mutex_t *)m));
}

GMP_EXPORT int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict t)
{
	return thrd_result(pthread_mutex_timedlock((pthread_mutex_t *)m, t));
}

GMP_EXPORT int mtx_trylock(mtx_t *m)
{
	return thrd_result(pthread_mutex_trylock((pthread_mutex_t *)m));
}

GMP_EXPORT int mtx_unlock(mtx_t *m)
{
	return thrd_result(pthread_mutex_unlock((pthread_mutex_t *)m));
}

GMP_EXPORT void mtx_destroy(mtx_t *m)
{
	pthread_mutex_destroy((pthread_mutex_t *)m);
}

GMP_EXPORT int cnd_init(cnd_t *c)
{
	return thrd_result(pthread_cond_init((pthread_cond_t *)c, NULL));
}

GMP_EXPORT int cnd_signal(cnd_t *c)
{
	return thrd_result(pthread_cond_signal((pthread_cond_t *)c));
}

GMP_EXPORT int cnd_broadcast(cnd_t *c)
{
	return thrd_result(pthread_cond_broadcast((pthread_cond_t *)c));
}

GMP_EXPORT int cnd_wait(cnd_t *c, mtx_t *m)
{
	return thrd_result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}

GMP_EXPORT int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict t)
{
	return thrd_result(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, t));
}

GMP_EXPORT void cnd_destroy(cnd_t *c)
{
	pthread_cond_destroy((pthread_cond_t *)c);
}

GMP_EXPORT int tss_create(tss_t *key, tss_dtor_t dtor)
{
	return thrd_result(pthread_key_create(key, dtor));
}

GMP_EXPORT void *tss_get(tss_t key)
{
	return pthread_getspecific(key);
}

GMP_EXPORT int tss_set(tss_t key, void *val)
{
	return thrd_result(pthread_setspecific(key, val));
}

GMP_EXPORT void tss_delete(tss_t key)
{
	pthread_key_delete(key);
}

GMP_EXPORT void call_once(once_flag *flag, void (*func)(void))
{
	pthread_once((pthread_once_t *)flag, func);
}
