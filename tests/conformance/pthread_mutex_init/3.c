/* The attributes object may be destroyed after pthread_mutex_init without
 * affecting the mutex: a recursive mutex stays recursive (POSIX
 * pthread_mutex_init, pthread_mutexattr_destroy). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutexattr_destroy(&a));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
