/* pthread_mutex_trylock by the owner of an error-checking mutex returns
 * EBUSY (the mutex is locked) (POSIX pthread_mutex_trylock). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_mutex_trylock(&m), EBUSY);
	OK(pthread_mutex_unlock(&m));
	pass();
}
