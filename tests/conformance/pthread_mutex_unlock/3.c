/* Unlocking a recursive mutex not held by the caller fails with EPERM, both
 * when it is unlocked and when another thread holds it (POSIX
 * pthread_mutex_unlock). */
#include "../conform.h"
static pthread_mutex_t m;
static void *fn(void *a) { return (void *)(intptr_t)pthread_mutex_unlock(&m); }
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE));
	OK(pthread_mutex_init(&m, &a));
	EXPECT(pthread_mutex_unlock(&m), EPERM);
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)EPERM);
	OK(pthread_mutex_unlock(&m));
	pass();
}
