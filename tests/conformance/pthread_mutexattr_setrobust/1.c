/* getrobust returns the value given to setrobust, for both
 * PTHREAD_MUTEX_ROBUST and PTHREAD_MUTEX_STALLED (POSIX
 * pthread_mutexattr_getrobust). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int v;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	OK(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_ROBUST);
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_STALLED));
	OK(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_STALLED);
	pass();
}
