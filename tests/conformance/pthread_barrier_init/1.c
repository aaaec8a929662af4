/* pthread_barrier_init with count 0 fails with EINVAL (POSIX
 * pthread_barrier_init). */
#include "../conform.h"
int main(void)
{
	pthread_barrier_t b;
	EXPECT(pthread_barrier_init(&b, NULL, 0), EINVAL);
	pass();
}
