/* A thread blocked in pthread_cond_wait (a cancellation point) is
 * cancelled; its cleanup handler runs with the mutex locked again (POSIX
 * pthread_cond_wait: cancellation re-acquires the mutex first). */
#include "../conform.h"
static pthread_mutex_t m;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waiting, relocked = -1;
static void cleanup(void *a)
{
	relocked = pthread_mutex_lock(&m) == EDEADLK; /* errorcheck: EDEADLK means we own it */
	pthread_mutex_unlock(&m);
}
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting = 1;
	pthread_cleanup_push(cleanup, NULL);
	for (;;)
		pthread_cond_wait(&c, &m);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	pthread_t t = spawn(fn, NULL);
	for (;;) {
		pthread_mutex_lock(&m);
		int w = waiting;
		pthread_mutex_unlock(&m);
		if (w)
			break;
		sched_yield();
	}
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	CHECK(relocked == 1);
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
