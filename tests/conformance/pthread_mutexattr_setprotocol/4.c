/* PTHREAD_PRIO_INHERIT: a thread holding the mutex runs at the priority
 * of the highest thread blocked on it (POSIX, TPI), so a busy thread of a
 * middle priority does not keep the high one waiting.  The middle thread
 * spins 300 ms at most. */
#include "../rt.h"
static pthread_mutex_t m;
static sem_t go;
static volatile int h_done, arrived, m_saw = -1;
static void *low(void *a)
{
	OK(pthread_mutex_lock(&m));
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	sem_wait_ok(&go);
	OK(pthread_mutex_unlock(&m));
	return a;
}
static void *high(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	OK(pthread_mutex_lock(&m));
	h_done = 1;
	OK(pthread_mutex_unlock(&m));
	return a;
}
static void *mid(void *a)
{
	long end = rt_ms() + 300;
	while (!h_done && rt_ms() < end)
		;
	m_saw = h_done;
	return a;
}
int main(void)
{
	pthread_mutexattr_t at;
	rt_setup();
	OK(pthread_mutexattr_init(&at));
	OK(pthread_mutexattr_setprotocol(&at, PTHREAD_PRIO_INHERIT));
	OK(pthread_mutex_init(&m, &at));
	CHECK(sem_init(&go, 0, 0) == 0);
	pthread_t l = rt_spawn(low, NULL, SCHED_FIFO, 5);
	while (arrived < 1)
		settle(1);
	settle(20);
	pthread_t h = rt_spawn(high, NULL, SCHED_FIFO, 20);
	while (arrived < 2)
		settle(1);
	settle(20);
	pthread_t md = rt_spawn(mid, NULL, SCHED_FIFO, 10);
	CHECK(sem_post(&go) == 0);
	join(h);
	join(md);
	join(l);
	rt_teardown();
	CHECK(m_saw == 1);
	pass();
}
