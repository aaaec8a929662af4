/* A thread joining itself is a deadlock the implementation detects with
 * EDEADLK (POSIX pthread_join, error conditions). */
#include "../conform.h"
static void *fn(void *a) { return (void *)(intptr_t)pthread_join(pthread_self(), NULL); }
int main(void)
{
	EXPECT(pthread_join(pthread_self(), NULL), EDEADLK);
	CHECK(join(spawn(fn, NULL)) == (void *)(intptr_t)EDEADLK);
	pass();
}
