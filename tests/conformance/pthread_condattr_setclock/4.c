/* A condition variable with CLOCK_MONOTONIC measures pthread_cond_timedwait's
 * abstime on that clock: a monotonic deadline far below the realtime clock's
 * reading does not time out at once when it is still in the future (POSIX
 * pthread_condattr_setclock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	pthread_condattr_t a;
	pthread_cond_t c;
	struct timespec t0;
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	OK(pthread_cond_init(&c, &a));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 100);
	OK(pthread_mutex_lock(&m));
	int r;
	while ((r = pthread_cond_timedwait(&c, &m, &dl)) == 0)
		;
	EXPECT(r, ETIMEDOUT);
	CHECK(since_ms(CLOCK_MONOTONIC, &t0) >= 99);
	OK(pthread_mutex_unlock(&m));
	pass();
}
