/* Threads of the SCHED_FIFO policy blocked on a mutex acquire it in
 * priority order when it is unlocked (POSIX pthread_mutex_unlock: the
 * scheduling policy decides which waiter gets it; TPS). */
#include "../rt.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int arrived;
static void *fn(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	OK(pthread_mutex_lock(&m));
	rt_note((int)(intptr_t)a);
	OK(pthread_mutex_unlock(&m));
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
	OK(pthread_mutex_lock(&m));
	for (int i = 0; i < 3; i++) {
		t[i] = rt_spawn(fn, (void *)(intptr_t)prio[i], SCHED_FIFO, prio[i]);
		while (arrived <= i)
			settle(1);
		settle(20); /* into the lock */
	}
	OK(pthread_mutex_unlock(&m));
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
