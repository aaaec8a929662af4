/* Unlocking an unlocked error-checking mutex fails with EPERM (POSIX
 * pthread_mutex_unlock). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	EXPECT(pthread_mutex_unlock(&m), EPERM);
	pass();
}
