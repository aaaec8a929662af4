/* pthread_rwlock_timedwrlock on a free lock succeeds even with an expired
 * abstime; if it would block, a tv_nsec out of range gives EINVAL (POSIX
 * pthread_rwlock_timedwrlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec bad = {time(NULL) + 10, -5};
	return (void *)(intptr_t)pthread_rwlock_timedwrlock(&l, &bad);
}
int main(void)
{
	struct timespec past = {0, 0};
	OK(pthread_rwlock_timedwrlock(&l, &past));
	CHECK(join(spawn(fn, NULL)) == (void *)EINVAL);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
