/* pthread_cond_clockwait with CLOCK_MONOTONIC returns ETIMEDOUT once that
 * clock passes abstime (POSIX pthread_cond_clockwait, Issue 8). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 80), now;
	OK(pthread_mutex_lock(&m));
	int r;
	while ((r = pthread_cond_clockwait(&c, &m, CLOCK_MONOTONIC, &dl)) == 0)
		;
	EXPECT(r, ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	OK(pthread_mutex_unlock(&m));
	pass();
}
