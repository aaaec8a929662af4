/* pthread_mutex_timedlock by the owner of an error-checking mutex fails with
 * EDEADLK (POSIX pthread_mutex_timedlock, errors shared with lock). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	struct timespec dl = abs_ms(CLOCK_REALTIME, 50);
	EXPECT(pthread_mutex_timedlock(&m, &dl), EDEADLK);
	pass();
}
