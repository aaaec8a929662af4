/* The default stacksize of an initialised attributes object is at least
 * PTHREAD_STACK_MIN (POSIX pthread_attr_getstacksize, limits.h). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t s = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getstacksize(&at, &s));
	CHECK(s >= (size_t)PTHREAD_STACK_MIN);
	pass();
}
