/* A thread blocked in pthread_cond_wait stays blocked until the condition
 * variable is signalled (POSIX pthread_cond_wait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int go, waiting;
static volatile int woke;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting = 1;
	while (!go)
		pthread_cond_wait(&c, &m);
	woke = 1;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t = spawn(fn, NULL);
	for (;;) {
		pthread_mutex_lock(&m);
		int w = waiting;
		pthread_mutex_unlock(&m);
		if (w)
			break;
		sched_yield();
	}
	settle(50);
	CHECK(!woke);
	OK(pthread_mutex_lock(&m));
	go = 1;
	OK(pthread_cond_signal(&c));
	OK(pthread_mutex_unlock(&m));
	join(t);
	CHECK(woke);
	pass();
}
