/* PTHREAD_PRIO_INHERIT and PTHREAD_PRIO_PROTECT change the owner's
 * priority while it holds the mutex, on one CPU (rt.h).
 *
 * Inheritance: L (5) holds a PI mutex that H (20) waits for, and M (10)
 * is runnable and would spin for 300 ms: L runs at H's priority, ahead of
 * M, and gives H the mutex before M runs at all.
 * Protection: L (5) holds a PP mutex of ceiling 20 and wakes M (10): M
 * runs only once L unlocks, and at once then. */
#define _GNU_SOURCE
#include <semaphore.h>

#include "rt.h"

static pthread_mutex_t pm;
static sem_t go_l, go_m;
static volatile int h_done, m_saw_h = -1;

enum { EV_L_GO = 1, EV_H = 2, EV_M = 3, EV_L_END = 4, EV_L_HOLDS = 5 };

static void *pi_low(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pm);
	sem_wait(&go_l); /* holding it */
	rt_note(EV_L_GO);
	pthread_mutex_unlock(&pm);
	rt_note(EV_L_END);
	return NULL;
}

static void *pi_high(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pm);
	rt_note(EV_H);
	h_done = 1;
	pthread_mutex_unlock(&pm);
	return NULL;
}

static void *pi_mid(void *arg)
{
	(void)arg;
	long end = rt_now_ms() + 300;
	while (!h_done && rt_now_ms() < end)
		;
	m_saw_h = h_done;
	rt_note(EV_M);
	return NULL;
}

static void *pp_low(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pm);
	sem_post(&go_m);
	rt_note(EV_L_HOLDS);
	pthread_mutex_unlock(&pm);
	rt_note(EV_L_END);
	return NULL;
}

static void *pp_mid(void *arg)
{
	(void)arg;
	sem_wait(&go_m);
	rt_note(EV_M);
	return NULL;
}

int main(void)
{
	rt_setup();
	sem_init(&go_l, 0, 0);
	sem_init(&go_m, 0, 0);
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	int err = pthread_mutex_init(&pm, &a);
	if (err) {
		fprintf(stderr, "pthread_mutex_init(PTHREAD_PRIO_INHERIT): %s\n", strerror(err));
		return 1;
	}

	pthread_t l, h, md;
	rt_create(&l, pi_low, NULL, SCHED_FIFO, 5);
	rt_wait_parked(1);
	rt_create(&h, pi_high, NULL, SCHED_FIFO, 20);
	rt_wait_parked(2);
	rt_create(&md, pi_mid, NULL, SCHED_FIFO, 10);
	sem_post(&go_l);
	pthread_join(h, NULL);
	pthread_join(md, NULL);
	pthread_join(l, NULL);
	printf("PI events: %s\n", rt_order(0, 4));
	CHECK(m_saw_h == 1, "PI: the waiter got the mutex before a busy middle thread ran");
	CHECK(strcmp(rt_order(0, 4), "1 2 3 4") == 0, "PI: owner boosted, then back to its own priority");
	pthread_mutex_destroy(&pm);

	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT);
	pthread_mutexattr_setprioceiling(&a, 20);
	err = pthread_mutex_init(&pm, &a);
	if (err) {
		fprintf(stderr, "pthread_mutex_init(PTHREAD_PRIO_PROTECT): %s\n", strerror(err));
		return 1;
	}
	rt_create(&md, pp_mid, NULL, SCHED_FIFO, 10);
	rt_wait_parked(1);
	rt_create(&l, pp_low, NULL, SCHED_FIFO, 5);
	pthread_join(l, NULL);
	pthread_join(md, NULL);
	printf("PP events: %s\n", rt_order(4, 3));
	CHECK(strcmp(rt_order(4, 3), "5 3 4") == 0, "PP: the owner runs at the ceiling until it unlocks");
	pthread_mutex_destroy(&pm);

	rt_teardown();
	CHECK(made_as_gs(5), "threads ran as Gs");
	return failures != 0;
}
