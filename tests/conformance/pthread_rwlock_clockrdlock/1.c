/* pthread_rwlock_clockrdlock and pthread_rwlock_clockwrlock with
 * CLOCK_MONOTONIC time out with ETIMEDOUT while the lock is write-held
 * (POSIX pthread_rwlock_clockrdlock / clockwrlock, Issue 8). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 40);
	int r1 = pthread_rwlock_clockrdlock(&l, CLOCK_MONOTONIC, &dl);
	dl = abs_ms(CLOCK_MONOTONIC, 40);
	int r2 = pthread_rwlock_clockwrlock(&l, CLOCK_MONOTONIC, &dl);
	return (void *)(intptr_t)(r1 == ETIMEDOUT && r2 == ETIMEDOUT);
}
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
