/* pthread_mutex_setprioceiling with a ceiling outside the SCHED_FIFO range
 * fails with EINVAL (POSIX pthread_mutex_setprioceiling). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	int old;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	OK(pthread_mutexattr_setprioceiling(&a, sched_get_priority_min(SCHED_FIFO)));
	OK(pthread_mutex_init(&m, &a));
	EXPECT(pthread_mutex_setprioceiling(&m, sched_get_priority_max(SCHED_FIFO) + 1, &old), EINVAL);
	pass();
}
