/* After pthread_cond_broadcast, the unblocked SCHED_FIFO threads contend
 * for the mutex and run in priority order on one processor (POSIX:
 * "according to the scheduling policy"). */
#include "../rt.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go, waiting;
static void *fn(void *a)
{
	OK(pthread_mutex_lock(&m));
	waiting++;
	while (!go)
		OK(pthread_cond_wait(&c, &m));
	OK(pthread_mutex_unlock(&m));
	rt_note((int)(intptr_t)a);
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
	/* One at a time: they queue in this order, none of the two wanted. */
	for (int i = 0; i < 3; i++) {
		t[i] = rt_spawn(fn, (void *)(intptr_t)prio[i], SCHED_FIFO, prio[i]);
		for (;;) {
			OK(pthread_mutex_lock(&m));
			int w = waiting;
			OK(pthread_mutex_unlock(&m));
			if (w > i)
				break;
			settle(1);
		}
	}
	OK(pthread_mutex_lock(&m));
	go = 1;
	OK(pthread_cond_broadcast(&c));
	OK(pthread_mutex_unlock(&m));
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
