/* Mutex types, static initializers, zeroed objects and error codes; a
 * contended counter; condvar ping-pong. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"


static pthread_mutex_t m_static = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m_rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t m_err = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t m_zero;  /* zeroed memory, never initialised */
static pthread_cond_t c_zero;

static long counter;
static pthread_mutex_t *counted;

static void *increment(void *arg)
{
	for (int i = 0; i < 100000; i++) {
		pthread_mutex_lock(counted);
		counter++;
		pthread_mutex_unlock(counted);
	}
	return arg;
}

static void *unlock_foreign(void *arg)
{
	return (void *)(long)pthread_mutex_unlock(arg);
}

static int turn, rounds_done;
static void *pong(void *arg)
{
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&m_zero);
		while (turn != 1)
			pthread_cond_wait(&c_zero, &m_zero);
		turn = 0;
		rounds_done++;
		pthread_cond_signal(&c_zero);
		pthread_mutex_unlock(&m_zero);
	}
	return arg;
}

static long contended(pthread_mutex_t *m)
{
	counter = 0;
	counted = m;
	pthread_t t[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, increment, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	return counter;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m_adapt, m_norm;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&m_adapt, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);
	pthread_mutex_init(&m_norm, &a);

	CHECK(contended(&m_static) == 800000, "static initializer: 8 x 100,000 increments exact");
	CHECK(contended(&m_adapt) == 800000, "adaptive mutex: exact");
	CHECK(contended(&m_rec) == 800000, "recursive (static _NP initializer): exact");
	CHECK(contended(&m_zero) == 800000, "zeroed memory mutex: exact");

	CHECK(pthread_mutex_trylock(&m_norm) == 0, "trylock a free mutex");
	CHECK(pthread_mutex_trylock(&m_norm) == EBUSY, "trylock a held normal mutex: EBUSY");
	CHECK(pthread_mutex_destroy(&m_norm) == EBUSY, "destroy a locked mutex: EBUSY");
	pthread_mutex_unlock(&m_norm);
	CHECK(pthread_mutex_destroy(&m_norm) == 0, "destroy an unlocked mutex");

	int depth_ok = 1;
	for (int i = 0; i < 10; i++)
		depth_ok &= pthread_mutex_lock(&m_rec) == 0;
	CHECK(depth_ok && pthread_mutex_trylock(&m_rec) == 0, "recursive: depth 11 by lock and trylock");
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, unlock_foreign, &m_rec);
	pthread_join(t, &r);
	CHECK((long)r == EPERM, "recursive: unlock by another thread: EPERM");
	int unlocks_ok = 1;
	for (int i = 0; i < 11; i++)
		unlocks_ok &= pthread_mutex_unlock(&m_rec) == 0;
	CHECK(unlocks_ok && pthread_mutex_unlock(&m_rec) == EPERM, "recursive: 11 unlocks, then EPERM");

	CHECK(pthread_mutex_lock(&m_err) == 0, "errorcheck: lock");
	CHECK(pthread_mutex_lock(&m_err) == EDEADLK, "errorcheck: relock: EDEADLK");
	CHECK(pthread_mutex_trylock(&m_err) == EBUSY, "errorcheck: trylock while held: EBUSY");
	pthread_create(&t, NULL, unlock_foreign, &m_err);
	pthread_join(t, &r);
	CHECK((long)r == EPERM, "errorcheck: unlock by another thread: EPERM");
	CHECK(pthread_mutex_unlock(&m_err) == 0, "errorcheck: unlock");
	CHECK(pthread_mutex_unlock(&m_err) == EPERM, "errorcheck: unlock when unlocked: EPERM");

	pthread_create(&t, NULL, pong, NULL);
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(&m_zero);
		turn = 1;
		pthread_cond_signal(&c_zero);
		while (turn != 0)
			pthread_cond_wait(&c_zero, &m_zero);
		pthread_mutex_unlock(&m_zero);
	}
	pthread_join(t, NULL);
	CHECK(rounds_done == 10000, "zeroed condvar: 10,000 ping-pong rounds");

	pthread_cond_t cv;
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cv, &ca);
	struct timespec ts = deadline_in(CLOCK_MONOTONIC, 5000000);
	pthread_mutex_lock(&m_static);
	int tw = pthread_cond_timedwait(&cv, &m_static, &ts);
	struct timespec after;
	clock_gettime(CLOCK_MONOTONIC, &after);
	int late_enough = after.tv_sec > ts.tv_sec || (after.tv_sec == ts.tv_sec && after.tv_nsec >= ts.tv_nsec);
	CHECK(tw == ETIMEDOUT && late_enough, "monotonic timedwait: ETIMEDOUT, not before the deadline");
	CHECK(pthread_mutex_trylock(&m_static) == EBUSY, "the mutex is held again after the timeout");
	pthread_mutex_unlock(&m_static);
	ts.tv_nsec = 2000000000;
	pthread_mutex_lock(&m_static);
	CHECK(pthread_cond_timedwait(&cv, &m_static, &ts) == EINVAL, "timedwait with tv_nsec out of range: EINVAL");
	pthread_mutex_unlock(&m_static);

	printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
	return failures != 0;
}
