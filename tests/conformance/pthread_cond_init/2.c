/* A condition variable initialised with PTHREAD_COND_INITIALIZER works for
 * a timed wait without pthread_cond_init (POSIX pthread_cond_init). */
#include "../conform.h"
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 10);
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_cond_timedwait(&c, &m, &dl), ETIMEDOUT);
	OK(pthread_mutex_unlock(&m));
	pass();
}
