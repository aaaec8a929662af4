/* pthread_mutex_timedlock returns 0 if the holder unlocks before abstime
 * (POSIX pthread_mutex_timedlock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t trying;
static void *fn(void *a)
{
	struct timespec dl = abs_ms(CLOCK_REALTIME, 60000);
	sem_post(&trying);
	int r = pthread_mutex_timedlock(&m, &dl);
	if (r == 0)
		pthread_mutex_unlock(&m);
	return (void *)(intptr_t)r;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(20);
	OK(pthread_mutex_unlock(&m));
	CHECK(join(t) == 0);
	pass();
}
