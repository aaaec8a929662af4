/* pthread_join on a live thread that is not joinable (detached) fails with
 * EINVAL (POSIX pthread_join, error conditions). */
#include "../conform.h"
static sem_t go, gone;
static void *fn(void *a) { sem_wait_ok(&go); sem_post(&gone); return NULL; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	sem_init(&go, 0, 0);
	sem_init(&gone, 0, 0);
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_create(&t, &at, fn, NULL));
	EXPECT(pthread_join(t, NULL), EINVAL);
	sem_post(&go);
	sem_wait_ok(&gone);
	pass();
}
