/* A PTHREAD_PRIO_INHERIT mutex provides mutual exclusion like any other:
 * a second thread's trylock gets EBUSY while it is held (POSIX
 * pthread_mutexattr_setprotocol). */
#include "../conform.h"
static pthread_mutex_t m;
static void *fn(void *a) { return (void *)(intptr_t)pthread_mutex_trylock(&m); }
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_mutex_unlock(&m));
	CHECK(join(spawn(fn, NULL)) == 0);
	pass();
}
