/* A thread created with PTHREAD_SCOPE_SYSTEM runs (POSIX
 * pthread_attr_setscope). */
#include "../conform.h"
static void *fn(void *a) { return (void *)1; }
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setscope(&at, PTHREAD_SCOPE_SYSTEM));
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)1);
	pass();
}
