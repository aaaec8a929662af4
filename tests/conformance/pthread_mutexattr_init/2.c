/* An initialised mutex attributes object has the default values: type
 * PTHREAD_MUTEX_DEFAULT, PTHREAD_PROCESS_PRIVATE, PTHREAD_MUTEX_STALLED,
 * PTHREAD_PRIO_NONE (POSIX pthread_mutexattr_gettype / getpshared /
 * getrobust / getprotocol). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int v;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_gettype(&a, &v));
	CHECK(v == PTHREAD_MUTEX_DEFAULT);
	OK(pthread_mutexattr_getpshared(&a, &v));
	CHECK(v == PTHREAD_PROCESS_PRIVATE);
	OK(pthread_mutexattr_getrobust(&a, &v));
	CHECK(v == PTHREAD_MUTEX_STALLED);
	OK(pthread_mutexattr_getprotocol(&a, &v));
	CHECK(v == PTHREAD_PRIO_NONE);
	pass();
}
