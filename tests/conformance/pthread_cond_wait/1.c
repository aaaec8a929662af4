/* pthread_cond_wait releases the mutex while waiting: another thread can lock
 * it, and the waiter returns after being signalled (POSIX
 * pthread_cond_wait). */
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
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	while (!flag)
		OK(pthread_cond_wait(&c, &m));
	OK(pthread_mutex_unlock(&m));
	join(t);
	pass();
}
