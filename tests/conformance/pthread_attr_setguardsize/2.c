/* A guardsize of 0 is accepted (no guard area) and a thread created with it
 * runs (POSIX pthread_attr_setguardsize). */
#include "../conform.h"
static void *fn(void *a) { return (void *)1; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	size_t g = 1;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setguardsize(&at, 0));
	OK(pthread_attr_getguardsize(&at, &g));
	CHECK(g == 0);
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)1);
	pass();
}
