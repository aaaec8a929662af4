/* sem_post on an unnamed semaphore unblocks the highest-priority
 * SCHED_FIFO waiter first (POSIX sem_post, Process Scheduling). */
#include "../rt.h"
static sem_t s;
static volatile int arrived;
static void *fn(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	sem_wait_ok(&s);
	rt_note((int)(intptr_t)a);
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
	CHECK(sem_init(&s, 0, 0) == 0);
	for (int i = 0; i < 3; i++) {
		t[i] = rt_spawn(fn, (void *)(intptr_t)prio[i], SCHED_FIFO, prio[i]);
		while (arrived <= i)
			settle(1);
		settle(20);
	}
	for (int i = 0; i < 3; i++) {
		CHECK(sem_post(&s) == 0);
		rt_wait_log(i + 1);
	}
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
