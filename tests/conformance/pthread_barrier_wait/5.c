/* The SCHED_FIFO threads a barrier releases run in priority order on one
 * processor (POSIX pthread_barrier_wait, Process Scheduling). */
#include "../rt.h"
static pthread_barrier_t b;
static volatile int arrived;
static void *fn(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	int r = pthread_barrier_wait(&b);
	CHECK(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	rt_note((int)(intptr_t)a);
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
	OK(pthread_barrier_init(&b, NULL, 4));
	for (int i = 0; i < 3; i++) {
		t[i] = rt_spawn(fn, (void *)(intptr_t)prio[i], SCHED_FIFO, prio[i]);
		while (arrived <= i)
			settle(1);
		settle(20);
	}
	int r = pthread_barrier_wait(&b);
	CHECK(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
