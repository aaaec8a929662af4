/* getpshared returns the value given to setpshared, for both values (POSIX
 * pthread_condattr_getpshared). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	int v;
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_condattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_SHARED);
	OK(pthread_condattr_setpshared(&a, PTHREAD_PROCESS_PRIVATE));
	OK(pthread_condattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	pass();
}
