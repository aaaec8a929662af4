/* PTHREAD_PRIO_PROTECT: a thread holding the mutex runs at its priority
 * ceiling (POSIX, TPP): a thread of a priority between its own and the
 * ceiling, woken meanwhile, runs only once the mutex is unlocked. */
#include "../rt.h"
static pthread_mutex_t m;
static sem_t wake;
static volatile int arrived;
static void *mid(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	sem_wait_ok(&wake);
	rt_note(2);
	return a;
}
static void *low(void *a)
{
	OK(pthread_mutex_lock(&m));
	CHECK(sem_post(&wake) == 0);
	rt_note(1);
	OK(pthread_mutex_unlock(&m));
	rt_note(3);
	return a;
}
int main(void)
{
	static const int want[3] = { 1, 2, 3 };
	pthread_mutexattr_t at;
	rt_setup();
	OK(pthread_mutexattr_init(&at));
	OK(pthread_mutexattr_setprotocol(&at, PTHREAD_PRIO_PROTECT));
	OK(pthread_mutexattr_setprioceiling(&at, 20));
	OK(pthread_mutex_init(&m, &at));
	CHECK(sem_init(&wake, 0, 0) == 0);
	pthread_t md = rt_spawn(mid, NULL, SCHED_FIFO, 10);
	while (arrived < 1)
		settle(1);
	settle(20);
	pthread_t l = rt_spawn(low, NULL, SCHED_FIFO, 5);
	join(l);
	join(md);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
