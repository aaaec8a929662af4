/* Priority-inheritance and priority-protect mutexes: init, lock, unlock,
 * the ceiling stored and reported, and contention between threads (which
 * must park, not spin or fail). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static pthread_mutex_t m;
static long shared_counter;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		pthread_mutex_lock(&m);
		shared_counter++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static int hammer(void)
{
	pthread_t t[4];
	shared_counter = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return shared_counter == 80000;
}

static void *try_other(void *arg)
{
	return (void *)(long)pthread_mutex_trylock(arg);
}

static int trylock_from_other(pthread_mutex_t *mx)
{
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, try_other, mx);
	pthread_join(t, &r);
	return (int)(long)r;
}

int main(void)
{
	pthread_mutexattr_t a;
	int proto, ceiling, old;

	/* Priority inheritance. */
	pthread_mutexattr_init(&a);
	CHECK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT) == 0, "PI: attr setprotocol");
	CHECK(pthread_mutexattr_getprotocol(&a, &proto) == 0 && proto == PTHREAD_PRIO_INHERIT, "PI: attr getprotocol");
	CHECK(pthread_mutex_init(&m, &a) == 0, "PI: init");
	CHECK(pthread_mutex_lock(&m) == 0, "PI: lock");
	CHECK(trylock_from_other(&m) == EBUSY, "PI: trylock from another thread while held: EBUSY");
	CHECK(pthread_mutex_unlock(&m) == 0, "PI: unlock");
	CHECK(pthread_mutex_getprioceiling(&m, &ceiling) == EINVAL, "PI: getprioceiling EINVAL (not PP)");
	CHECK(pthread_mutex_setprioceiling(&m, 10, &old) == EINVAL, "PI: setprioceiling EINVAL (not PP)");
	CHECK(hammer(), "PI: 4 threads x 20000 increments under the mutex");
	CHECK(pthread_mutex_destroy(&m) == 0, "PI: destroy");
	pthread_mutexattr_destroy(&a);

	/* Priority-inheritance errorcheck. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	CHECK(pthread_mutex_init(&m, &a) == 0, "PI errorcheck: init");
	CHECK(pthread_mutex_lock(&m) == 0, "PI errorcheck: lock");
	CHECK(pthread_mutex_lock(&m) == EDEADLK, "PI errorcheck: relock EDEADLK");
	CHECK(pthread_mutex_unlock(&m) == 0, "PI errorcheck: unlock");
	CHECK(pthread_mutex_unlock(&m) == EPERM, "PI errorcheck: unlock unlocked EPERM");
	pthread_mutex_destroy(&m);
	pthread_mutexattr_destroy(&a);

	/* Priority protection: the ceiling from the attribute, reported and
	 * changed; set rejects values outside the SCHED_FIFO range. */
	pthread_mutexattr_init(&a);
	CHECK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT) == 0, "PP: attr setprotocol");
	CHECK(pthread_mutexattr_setprioceiling(&a, 10) == 0, "PP: attr setprioceiling 10");
	CHECK(pthread_mutexattr_getprioceiling(&a, &ceiling) == 0 && ceiling == 10, "PP: attr getprioceiling");
	CHECK(pthread_mutex_init(&m, &a) == 0, "PP: init");
	CHECK(pthread_mutex_getprioceiling(&m, &ceiling) == 0 && ceiling == 10, "PP: getprioceiling 10");
	CHECK(pthread_mutex_setprioceiling(&m, 20, &old) == 0 && old == 10, "PP: setprioceiling 20, old 10");
	CHECK(pthread_mutex_getprioceiling(&m, &ceiling) == 0 && ceiling == 20, "PP: getprioceiling 20");
	CHECK(pthread_mutex_setprioceiling(&m, 1000, &old) == EINVAL, "PP: setprioceiling 1000 EINVAL");
	CHECK(pthread_mutex_destroy(&m) == 0, "PP: destroy");
	pthread_mutexattr_destroy(&a);

	/* NPTL raises a thread that locks a PP mutex to the ceiling; an
	 * ordinary (SCHED_OTHER) thread cannot have that priority, so the lock
	 * fails with EINVAL, and the mutex stays free. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT);
	CHECK(pthread_mutex_init(&m, &a) == 0, "PP default ceiling: init");
	CHECK(pthread_mutex_getprioceiling(&m, &ceiling) == 0 && ceiling == 1, "PP default ceiling: 1");
	CHECK(pthread_mutex_lock(&m) == EINVAL, "PP: lock by a SCHED_OTHER thread EINVAL");
	CHECK(pthread_mutex_setprioceiling(&m, 5, &old) == 0 && old == 1, "PP: setprioceiling while free");
	CHECK(pthread_mutex_destroy(&m) == 0, "PP default ceiling: destroy");
	pthread_mutexattr_destroy(&a);

	/* Contention again on a fresh PI mutex. */
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&m, &a);
	CHECK(hammer(), "PI: second round of contention");
	pthread_mutex_destroy(&m);
	pthread_mutexattr_destroy(&a);

	return failures != 0;
}
