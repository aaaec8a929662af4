/* setclock with a CPU-time clock fails with EINVAL (POSIX
 * pthread_condattr_setclock). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	OK(pthread_condattr_init(&a));
	EXPECT(pthread_condattr_setclock(&a, CLOCK_PROCESS_CPUTIME_ID), EINVAL);
	EXPECT(pthread_condattr_setclock(&a, CLOCK_THREAD_CPUTIME_ID), EINVAL);
	pass();
}
