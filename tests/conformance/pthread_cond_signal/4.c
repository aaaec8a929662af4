/* pthread_cond_signal unblocks the waiters of the SCHED_FIFO policy in
 * priority order (POSIX: "the scheduling policy shall determine the order
 * in which threads are unblocked"). */
#include "../rt.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int tokens, waiting;
static void *fn(void *a)
{
	OK(pthread_mutex_lock(&m));
	waiting++;
	while (tokens == 0)
		OK(pthread_cond_wait(&c, &m));
	tokens--;
	rt_note((int)(intptr_t)a);
	OK(pthread_mutex_unlock(&m));
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
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
	for (int i = 0; i < 3; i++) {
		OK(pthread_mutex_lock(&m));
		tokens++;
		OK(pthread_cond_signal(&c));
		OK(pthread_mutex_unlock(&m));
		rt_wait_log(i + 1);
	}
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
