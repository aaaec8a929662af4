/* pthread_mutex_timedlock on a mutex held by another thread fails with
 * ETIMEDOUT once abstime (CLOCK_REALTIME) has passed, and not before (POSIX
 * pthread_mutex_timedlock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t locked, go;
static void *fn(void *a) { pthread_mutex_lock(&m); sem_post(&locked); sem_wait_ok(&go); pthread_mutex_unlock(&m); return NULL; }
int main(void)
{
	sem_init(&locked, 0, 0);
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&locked);
	struct timespec dl = abs_ms(CLOCK_REALTIME, 100);
	EXPECT(pthread_mutex_timedlock(&m, &dl), ETIMEDOUT);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	sem_post(&go);
	join(t);
	pass();
}
