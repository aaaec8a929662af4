/* A NULL attr means default attributes, and the default detach state is
 * joinable: the thread can be joined (POSIX pthread_create,
 * pthread_attr_init). */
#include "../conform.h"
static void *fn(void *a) { return (void *)7; }
int main(void)
{
	pthread_t t;
	void *v;
	OK(pthread_create(&t, NULL, fn, NULL));
	OK(pthread_join(t, &v));
	CHECK(v == (void *)7);
	pass();
}
