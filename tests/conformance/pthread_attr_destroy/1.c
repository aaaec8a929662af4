/* pthread_attr_destroy returns 0, and a destroyed object can be initialised
 * again and used (POSIX pthread_attr_destroy). */
#include "../conform.h"
static void *fn(void *a) { return a; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_attr_destroy(&at));
	OK(pthread_attr_init(&at));
	OK(pthread_create(&t, &at, fn, (void *)1));
	CHECK(join(t) == (void *)1);
	OK(pthread_attr_destroy(&at));
	pass();
}
