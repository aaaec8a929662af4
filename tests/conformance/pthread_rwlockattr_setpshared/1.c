/* pthread_rwlockattr_init gives PTHREAD_PROCESS_PRIVATE by default;
 * getpshared returns what setpshared set; destroy returns 0 (POSIX
 * pthread_rwlockattr_init, pthread_rwlockattr_getpshared). */
#include "../conform.h"
int main(void)
{
	pthread_rwlockattr_t a;
	int v = -1;
	OK(pthread_rwlockattr_init(&a));
	OK(pthread_rwlockattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	OK(pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_rwlockattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	OK(pthread_rwlockattr_destroy(&a));
	pass();
}
