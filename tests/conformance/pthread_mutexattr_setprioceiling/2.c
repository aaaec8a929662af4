/* setprioceiling with a priority outside the SCHED_FIFO range fails with
 * EINVAL (POSIX pthread_mutexattr_setprioceiling). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	EXPECT(pthread_mutexattr_setprioceiling(&a, sched_get_priority_max(SCHED_FIFO) + 1), EINVAL);
	pass();
}
