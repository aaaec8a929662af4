/* The default inheritsched and schedpolicy of an initialised attributes
 * object are valid values of their kind (POSIX pthread_attr_getinheritsched,
 * pthread_attr_getschedpolicy). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int inh = -1, pol = -1;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getinheritsched(&at, &inh));
	CHECK(inh == PTHREAD_INHERIT_SCHED || inh == PTHREAD_EXPLICIT_SCHED);
	OK(pthread_attr_getschedpolicy(&at, &pol));
	CHECK(pol == SCHED_OTHER || pol == SCHED_FIFO || pol == SCHED_RR);
	pass();
}
