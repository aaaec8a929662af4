/* pthread_mutex_timedlock with an abstime already in the past on a held
 * mutex fails with ETIMEDOUT at once (POSIX pthread_mutex_timedlock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *fn(void *a)
{
	struct timespec past = abs_ms(CLOCK_REALTIME, -1000);
	return (void *)(intptr_t)pthread_mutex_timedlock(&m, &past);
}
int main(void)
{
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)ETIMEDOUT);
	OK(pthread_mutex_unlock(&m));
	pass();
}
