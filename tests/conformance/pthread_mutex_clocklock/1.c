/* pthread_mutex_clocklock measures abstime on the given clock: with
 * CLOCK_MONOTONIC on a held mutex it fails with ETIMEDOUT once that clock
 * passes abstime (POSIX pthread_mutex_clocklock, Issue 8). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 80), now;
	int r = pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &dl);
	clock_gettime(CLOCK_MONOTONIC, &now);
	int late = now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec);
	return (void *)(intptr_t)(r == ETIMEDOUT && late);
}
int main(void)
{
	OK(pthread_mutex_lock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_mutex_unlock(&m));
	pass();
}
