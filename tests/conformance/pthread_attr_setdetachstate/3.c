/* A thread created with PTHREAD_CREATE_DETACHED runs, and cannot be joined
 * while it lives (POSIX pthread_attr_setdetachstate, pthread_join EINVAL). */
#include "../conform.h"
static sem_t go, finished;
static void *fn(void *a) { sem_wait_ok(&go); sem_post(&finished); return NULL; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	sem_init(&go, 0, 0);
	sem_init(&finished, 0, 0);
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_create(&t, &at, fn, NULL));
	EXPECT(pthread_detach(t), EINVAL);
	sem_post(&go);
	sem_wait_ok(&finished);
	pass();
}
