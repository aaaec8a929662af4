/* A thread may itself create threads, and the threads it creates can be
 * joined by any thread (POSIX pthread_create, pthread_join). */
#include "../conform.h"
static void *leaf(void *a) { return (void *)((intptr_t)a + 1); }
static void *mid(void *a)
{
	pthread_t t;
	if (pthread_create(&t, NULL, leaf, a) != 0)
		return NULL;
	return (void *)t;
}
int main(void)
{
	pthread_t inner = (pthread_t)join(spawn(mid, (void *)41));
	CHECK(inner != 0);
	CHECK(join(inner) == (void *)42);
	pass();
}
