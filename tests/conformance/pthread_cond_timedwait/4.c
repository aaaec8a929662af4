/* pthread_cond_timedwait returns 0 when signalled before abstime (POSIX
 * pthread_cond_timedwait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int flag;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
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
	while (!flag)
		OK(pthread_cond_timedwait(&c, &m, &dl));
	OK(pthread_mutex_unlock(&m));
	join(t);
	pass();
}
