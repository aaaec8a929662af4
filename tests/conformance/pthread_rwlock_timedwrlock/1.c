/* pthread_rwlock_timedwrlock fails with ETIMEDOUT once abstime has passed
 * while a reader holds the lock (POSIX pthread_rwlock_timedwrlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 80), now;
	int r = pthread_rwlock_timedwrlock(&l, &dl);
	clock_gettime(CLOCK_REALTIME, &now);
	int late = now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec);
	return (void *)(intptr_t)(r == ETIMEDOUT && late);
}
int main(void)
{
	OK(pthread_rwlock_rdlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
