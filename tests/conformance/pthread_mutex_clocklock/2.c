/* pthread_mutex_clocklock with a clock other than CLOCK_REALTIME or
 * CLOCK_MONOTONIC fails with EINVAL (POSIX pthread_mutex_clocklock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 50);
	return (void *)(intptr_t)pthread_mutex_clocklock(&m, CLOCK_PROCESS_CPUTIME_ID, &dl);
}
int main(void)
{
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)EINVAL);
	OK(pthread_mutex_unlock(&m));
	pass();
}
