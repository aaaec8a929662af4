/* pthread_mutex_getprioceiling returns the ceiling the mutex was created
 * with, and pthread_mutex_setprioceiling changes it, returning the old one
 * (POSIX pthread_mutex_getprioceiling). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	int lo = sched_get_priority_min(SCHED_FIFO), v = -1, old = -1;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_PROTECT));
	OK(pthread_mutexattr_setprioceiling(&a, lo));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == lo);
	OK(pthread_mutex_setprioceiling(&m, lo + 1, &old));
	CHECK(old == lo);
	OK(pthread_mutex_getprioceiling(&m, &v));
	CHECK(v == lo + 1);
	pass();
}
