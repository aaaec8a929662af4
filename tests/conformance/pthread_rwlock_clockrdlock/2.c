/* pthread_rwlock_clockrdlock / clockwrlock with an unsupported clock fail
 * with EINVAL (POSIX pthread_rwlock_clockrdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 40);
	int r1 = pthread_rwlock_clockrdlock(&l, CLOCK_PROCESS_CPUTIME_ID, &dl);
	int r2 = pthread_rwlock_clockwrlock(&l, CLOCK_PROCESS_CPUTIME_ID, &dl);
	return (void *)(intptr_t)(r1 == EINVAL && r2 == EINVAL);
}
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
