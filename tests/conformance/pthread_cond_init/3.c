/* A condition variable initialised from an attributes object that is then
 * destroyed keeps the attributes (clock stays CLOCK_MONOTONIC, seen from a
 * timed wait whose monotonic deadline is already past) (POSIX
 * pthread_cond_init). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	pthread_condattr_t a;
	pthread_cond_t c;
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	OK(pthread_cond_init(&c, &a));
	OK(pthread_condattr_destroy(&a));
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 20);
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_cond_timedwait(&c, &m, &dl), ETIMEDOUT);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	OK(pthread_mutex_unlock(&m));
	pass();
}
