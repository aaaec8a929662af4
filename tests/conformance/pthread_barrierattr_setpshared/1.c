/* pthread_barrierattr_init gives PTHREAD_PROCESS_PRIVATE by default;
 * getpshared returns what setpshared set; destroy returns 0 (POSIX
 * pthread_barrierattr_init, pthread_barrierattr_getpshared). */
#include "../conform.h"
int main(void)
{
	pthread_barrierattr_t a;
	int v = -1;
	OK(pthread_barrierattr_init(&a));
	OK(pthread_barrierattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	OK(pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_barrierattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	OK(pthread_barrierattr_destroy(&a));
	pass();
}
