/* Issue 19 (a): three SCHED_FIFO threads of priorities 20, 10 and 5 wait
 * on one mutex: it is handed over in priority order, as NPTL's (the
 * kernel's futex queue is ordered by priority), not in arrival order. */
#include "rt.h"

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *locker(void *arg)
{
	pthread_mutex_lock(&m);
	rt_note((int)(long)arg);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void)
{
	rt_setup();
	static const int prios[3] = { 5, 20, 10 }; /* arrival order: none of the two wanted */
	pthread_t t[3];
	pthread_mutex_lock(&m);
	for (int i = 0; i < 3; i++) {
		rt_create(&t[i], locker, (void *)(long)prios[i], SCHED_FIFO, prios[i]);
		rt_wait_parked(i + 1); /* so that they queue in this order */
	}
	pthread_mutex_unlock(&m);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("mutex handed over in the order: %s\n", rt_order(0, 3));
	CHECK(strcmp(rt_order(0, 3), "20 10 5") == 0, "SCHED_FIFO waiters of a mutex: highest first");
	rt_teardown();
	CHECK(made_as_gs(3), "threads ran as Gs");
	return failures != 0;
}
