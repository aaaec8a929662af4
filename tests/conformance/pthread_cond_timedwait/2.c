/* pthread_cond_timedwait with an abstime already past returns ETIMEDOUT
 * (POSIX pthread_cond_timedwait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	struct timespec past = abs_ms(CLOCK_REALTIME, -5000);
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_cond_timedwait(&c, &m, &past), ETIMEDOUT);
	OK(pthread_mutex_unlock(&m));
	pass();
}
