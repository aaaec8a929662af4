/* pthread_mutex_timedlock that would block, with tv_nsec outside
 * [0, 1000 million), fails with EINVAL (POSIX pthread_mutex_timedlock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *fn(void *a)
{
	struct timespec bad = {time(NULL) + 10, 1000000000L};
	int r1 = pthread_mutex_timedlock(&m, &bad);
	bad.tv_nsec = -1;
	int r2 = pthread_mutex_timedlock(&m, &bad);
	return (void *)(intptr_t)(r1 == EINVAL && r2 == EINVAL);
}
int main(void)
{
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_mutex_unlock(&m));
	pass();
}
