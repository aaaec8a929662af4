/* sem_timedwait returns 0 if the semaphore is posted before abstime (POSIX
 * sem_timedwait). */
#include "../conform.h"
static sem_t s, trying;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 60000);
	sem_post(&trying);
	return (void *)(intptr_t)sem_timedwait(&s, &dl);
}
int main(void)
{
	CHECK(sem_init(&s, 0, 0) == 0);
	sem_init(&trying, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(20);
	CHECK(sem_post(&s) == 0);
	CHECK(join(t) == 0);
	pass();
}
