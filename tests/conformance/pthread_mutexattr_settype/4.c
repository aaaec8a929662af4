/* A recursive mutex can be locked many times by its owner and needs as many
 * unlocks; one more unlock fails with EPERM (POSIX
 * pthread_mutexattr_settype, RECURSIVE type). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
	OK(pthread_mutex_init(&m, &a));
	for (int i = 0; i < 100; i++)
		OK(pthread_mutex_lock(&m));
	for (int i = 0; i < 100; i++)
		OK(pthread_mutex_unlock(&m));
	EXPECT(pthread_mutex_unlock(&m), EPERM);
	pass();
}
