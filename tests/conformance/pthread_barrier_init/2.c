/* pthread_barrier_init with count 1 succeeds, and every wait on it returns
 * at once with PTHREAD_BARRIER_SERIAL_THREAD (POSIX pthread_barrier_init,
 * pthread_barrier_wait). */
#include "../conform.h"
int main(void)
{
	pthread_barrier_t b;
	OK(pthread_barrier_init(&b, NULL, 1));
	for (int i = 0; i < 3; i++)
		EXPECT(pthread_barrier_wait(&b), PTHREAD_BARRIER_SERIAL_THREAD);
	OK(pthread_barrier_destroy(&b));
	pass();
}
