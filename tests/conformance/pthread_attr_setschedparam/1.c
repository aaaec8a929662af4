/* getschedparam on an attributes object returns the sched_priority given to
 * setschedparam (POSIX pthread_attr_getschedparam). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int mid = (sched_get_priority_min(SCHED_FIFO) + sched_get_priority_max(SCHED_FIFO)) / 2;
	struct sched_param sp = {.sched_priority = mid}, out = {0};
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setschedpolicy(&at, SCHED_FIFO));
	OK(pthread_attr_setschedparam(&at, &sp));
	OK(pthread_attr_getschedparam(&at, &out));
	CHECK(out.sched_priority == mid);
	pass();
}
