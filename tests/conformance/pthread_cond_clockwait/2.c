/* pthread_cond_clockwait with a clock other than CLOCK_REALTIME and
 * CLOCK_MONOTONIC fails with EINVAL (POSIX pthread_cond_clockwait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 50);
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_cond_clockwait(&c, &m, CLOCK_THREAD_CPUTIME_ID, &dl), EINVAL);
	OK(pthread_mutex_unlock(&m));
	pass();
}
