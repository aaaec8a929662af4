/* setschedparam with a priority outside the range of the attribute's policy
 * fails with EINVAL or ENOTSUP (POSIX pthread_attr_setschedparam). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	struct sched_param sp = {.sched_priority = sched_get_priority_max(SCHED_FIFO) + 1};
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setschedpolicy(&at, SCHED_FIFO));
	int r = pthread_attr_setschedparam(&at, &sp);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
