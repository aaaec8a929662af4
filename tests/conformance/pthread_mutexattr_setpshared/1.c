/* getpshared returns the value given to setpshared, for both
 * PTHREAD_PROCESS_SHARED and PTHREAD_PROCESS_PRIVATE (POSIX
 * pthread_mutexattr_getpshared). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int v;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	OK(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	pass();
}
