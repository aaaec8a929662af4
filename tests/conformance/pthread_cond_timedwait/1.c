/* pthread_cond_timedwait returns ETIMEDOUT once abstime has passed, not
 * before, and with the mutex locked by the caller (POSIX
 * pthread_cond_timedwait). */
#include "../conform.h"
static pthread_mutex_t m;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK));
	OK(pthread_mutex_init(&m, &a));
	struct timespec dl = abs_ms(CLOCK_REALTIME, 100), now;
	OK(pthread_mutex_lock(&m));
	int r;
	while ((r = pthread_cond_timedwait(&c, &m, &dl)) == 0)
		;
	EXPECT(r, ETIMEDOUT);
	clock_gettime(CLOCK_REALTIME, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	EXPECT(pthread_mutex_lock(&m), EDEADLK);
	OK(pthread_mutex_unlock(&m));
	pass();
}
