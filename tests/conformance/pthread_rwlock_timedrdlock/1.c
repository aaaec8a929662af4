/* pthread_rwlock_timedrdlock fails with ETIMEDOUT once abstime (realtime) has
 * passed while a writer holds the lock (POSIX pthread_rwlock_timedrdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 80), now;
	int r = pthread_rwlock_timedrdlock(&l, &dl);
	clock_gettime(CLOCK_REALTIME, &now);
	int late = now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec);
	return (void *)(intptr_t)(r == ETIMEDOUT && late);
}
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
