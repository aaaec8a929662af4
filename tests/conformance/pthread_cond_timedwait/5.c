/* pthread_cond_timedwait with an error-checking mutex the caller does not
 * own fails with EPERM (POSIX pthread_cond_timedwait). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec dl = abs_ms(CLOCK_REALTIME, 50);
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	EXPECT(pthread_cond_timedwait(&c, &m, &dl), EPERM);
	pass();
}
