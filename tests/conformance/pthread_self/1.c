/* pthread_self returns the same ID each time within one thread (POSIX
 * pthread_self). */
#include "../conform.h"
static void *fn(void *a) { return (void *)(intptr_t)pthread_equal(pthread_self(), pthread_self()); }
int main(void)
{
	CHECK(pthread_equal(pthread_self(), pthread_self()));
	CHECK(join(spawn(fn, NULL)) != 0);
	pass();
}
