/* A barrier no thread waits on can be destroyed (0) and initialised again
 * with another count (POSIX pthread_barrier_destroy). */
#include "../conform.h"
static pthread_barrier_t b;
static void *fn(void *a) { return (void *)(intptr_t)pthread_barrier_wait(&b); }
int main(void)
{
	OK(pthread_barrier_init(&b, NULL, 2));
	pthread_t t = spawn(fn, NULL);
	int r = pthread_barrier_wait(&b);
	CHECK(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	join(t);
	OK(pthread_barrier_destroy(&b));
	OK(pthread_barrier_init(&b, NULL, 1));
	EXPECT(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	OK(pthread_barrier_destroy(&b));
	pass();
}
