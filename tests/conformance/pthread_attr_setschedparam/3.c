/* The default schedparam of an attributes object holds a priority valid for
 * its default policy (POSIX pthread_attr_getschedparam). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int pol;
	struct sched_param sp;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getschedpolicy(&at, &pol));
	OK(pthread_attr_getschedparam(&at, &sp));
	CHECK(sp.sched_priority >= sched_get_priority_min(pol));
	CHECK(sp.sched_priority <= sched_get_priority_max(pol));
	pass();
}
