/* pthread_rwlock_timedrdlock that would block, with tv_nsec outside
 * [0, 1000 million), fails with EINVAL (POSIX pthread_rwlock_timedrdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec bad = {time(NULL) + 10, 2000000000L};
	return (void *)(intptr_t)pthread_rwlock_timedrdlock(&l, &bad);
}
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)EINVAL);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
