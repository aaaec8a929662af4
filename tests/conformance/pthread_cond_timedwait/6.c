/* While a thread is in pthread_cond_timedwait the mutex is free for others
 * (POSIX pthread_cond_timedwait: releases the mutex atomically). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int flag;
static void *fn(void *a)
{
	pthread_mutex_lock(&m); /* possible only if the waiter released m */
	flag = 1;
	pthread_cond_signal(&c);
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 60000);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	int r = 0;
	while (!flag && r == 0)
		r = pthread_cond_timedwait(&c, &m, &dl);
	EXPECT(r, 0);
	OK(pthread_mutex_unlock(&m));
	join(t);
	pass();
}
