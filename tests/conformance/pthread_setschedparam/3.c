/* pthread_setschedparam with a policy that is not defined fails with EINVAL
 * (or ENOTSUP) (POSIX pthread_setschedparam). */
#include "../conform.h"
int main(void)
{
	struct sched_param sp = {.sched_priority = 0};
	int r = pthread_setschedparam(pthread_self(), 4711, &sp);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
