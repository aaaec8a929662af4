/* pthread_setschedparam with a priority outside the policy's range fails with
 * EINVAL (or ENOTSUP), leaving the thread as it was (POSIX
 * pthread_setschedparam). */
#include "../conform.h"
int main(void)
{
	struct sched_param sp = {.sched_priority = sched_get_priority_max(SCHED_OTHER) + 5}, out;
	int pol, pol2;
	OK(pthread_getschedparam(pthread_self(), &pol, &out));
	int r = pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	CHECK(r == EINVAL || r == ENOTSUP);
	OK(pthread_getschedparam(pthread_self(), &pol2, &out));
	CHECK(pol2 == pol);
	pass();
}
