/* pthread_rwlock_timedwrlock returns 0 when the lock is released before
 * abstime (POSIX pthread_rwlock_timedwrlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static sem_t trying;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 60000);
	sem_post(&trying);
	int r = pthread_rwlock_timedwrlock(&l, &dl);
	if (r == 0)
		pthread_rwlock_unlock(&l);
	return (void *)(intptr_t)r;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_rwlock_wrlock(&l));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(20);
	OK(pthread_rwlock_unlock(&l));
	CHECK(join(t) == 0);
	pass();
}
