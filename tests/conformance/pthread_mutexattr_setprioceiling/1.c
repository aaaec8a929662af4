/* getprioceiling returns the ceiling given to setprioceiling, any value in
 * the SCHED_FIFO range (POSIX pthread_mutexattr_getprioceiling). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	int lo = sched_get_priority_min(SCHED_FIFO), hi = sched_get_priority_max(SCHED_FIFO), v;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	OK(pthread_mutexattr_setprioceiling(&a, lo));
	OK(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == lo);
	OK(pthread_mutexattr_setprioceiling(&a, hi));
	OK(pthread_mutexattr_getprioceiling(&a, &v));
	CHECK(v == hi);
	pass();
}
