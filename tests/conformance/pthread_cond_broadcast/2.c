/* pthread_cond_broadcast with no waiters returns 0 and has no effect
 * (POSIX pthread_cond_broadcast). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	OK(pthread_cond_broadcast(&c));
	struct timespec dl = abs_ms(CLOCK_REALTIME, 30);
	OK(pthread_mutex_lock(&m));
	int r;
	while ((r = pthread_cond_timedwait(&c, &m, &dl)) == 0)
		;
	EXPECT(r, ETIMEDOUT);
	OK(pthread_mutex_unlock(&m));
	pass();
}
