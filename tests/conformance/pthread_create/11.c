/* Changing the attributes object after pthread_create does not affect the
 * thread already created: a thread created joinable stays joinable (POSIX
 * pthread_create). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return (void *)5; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	void *v;
	sem_init(&go, 0, 0);
	OK(pthread_attr_init(&at));
	OK(pthread_create(&t, &at, fn, NULL));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_attr_destroy(&at));
	sem_post(&go);
	OK(pthread_join(t, &v));
	CHECK(v == (void *)5);
	pass();
}
