/* A PTHREAD_MUTEX_RECURSIVE mutex can be relocked by its owner, and is
 * released only after as many unlocks as locks: another thread cannot take
 * it before (POSIX pthread_mutex_lock). */
#include "../conform.h"
static pthread_mutex_t m;
static void *fn(void *a) { return (void *)(intptr_t)pthread_mutex_trylock(&m); }
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_unlock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_mutex_unlock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)0);
	pass();
}
