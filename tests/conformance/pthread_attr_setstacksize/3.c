/* A thread created with stacksize PTHREAD_STACK_MIN runs (POSIX
 * pthread_attr_setstacksize). */
#include "../conform.h"
static void *fn(void *a) { volatile char buf[1024]; buf[0] = 1; return (void *)(intptr_t)buf[0]; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN));
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)1);
	pass();
}
