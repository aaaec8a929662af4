/* A thread created with a stacksize attribute can use a stack of that size
 * (POSIX pthread_create, pthread_attr_setstacksize). */
#include "../conform.h"
static void *fn(void *a)
{
	volatile char big[4 << 20];
	for (size_t i = 0; i < sizeof big; i += 4096)
		big[i] = (char)i;
	return (void *)(intptr_t)(big[4096] == 0);
}
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	void *v;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstacksize(&at, 8 << 20));
	OK(pthread_create(&t, &at, fn, NULL));
	OK(pthread_join(t, &v));
	CHECK(v == (void *)1);
	pass();
}
