/* pthread_cond_timedwait with tv_nsec outside [0, 1000 million) fails with
 * EINVAL (POSIX pthread_cond_timedwait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int main(void)
{
	struct timespec bad = {time(NULL) + 10, 1000000000L};
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_cond_timedwait(&c, &m, &bad), EINVAL);
	bad.tv_nsec = -1;
	EXPECT(pthread_cond_timedwait(&c, &m, &bad), EINVAL);
	OK(pthread_mutex_unlock(&m));
	pass();
}
