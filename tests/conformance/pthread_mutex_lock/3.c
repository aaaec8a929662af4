/* Relocking a PTHREAD_MUTEX_ERRORCHECK mutex by its owner fails with EDEADLK
 * (POSIX pthread_mutex_lock). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_mutex_lock(&m), EDEADLK);
	OK(pthread_mutex_unlock(&m));
	pass();
}
