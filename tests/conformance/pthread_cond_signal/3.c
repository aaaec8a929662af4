/* pthread_cond_signal may be called without holding the mutex, and still
 * wakes a waiter (POSIX pthread_cond_signal). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static volatile int flag, waiting;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting = 1;
	while (!flag)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t = spawn(fn, NULL);
	for (;;) {
		pthread_mutex_lock(&m);
		int w = waiting;
		flag = w;
		pthread_mutex_unlock(&m);
		if (w)
			break;
		sched_yield();
	}
	OK(pthread_cond_signal(&c));
	join(t);
	pass();
}
