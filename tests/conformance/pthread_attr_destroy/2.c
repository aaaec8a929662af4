/* Destroying the attributes object after pthread_create does not affect the
 * created thread (POSIX pthread_attr_destroy). */
#include "../conform.h"
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return a; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	sem_init(&go, 0, 0);
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstacksize(&at, 1 << 20));
	OK(pthread_create(&t, &at, fn, (void *)8));
	OK(pthread_attr_destroy(&at));
	memset(&at, 0xa5, sizeof at);
	sem_post(&go);
	CHECK(join(t) == (void *)8);
	pass();
}
