/* On return from pthread_cond_wait the mutex is locked and owned by the
 * caller (POSIX pthread_cond_wait). */
#include "../conform.h"
static pthread_mutex_t m;
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
static void *probe(void *a) { return (void *)(intptr_t)pthread_mutex_trylock(&m); }
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	while (!flag)
		OK(pthread_cond_wait(&c, &m));
	EXPECT(pthread_mutex_lock(&m), EDEADLK);
	CHECK(join(spawn(probe, NULL)) == (void *)EBUSY);
	OK(pthread_mutex_unlock(&m));
	join(t);
	pass();
}
