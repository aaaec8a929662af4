/* pthread_setschedprio with a priority outside the range of the thread's
 * policy fails with EINVAL (or ENOTSUP) (POSIX pthread_setschedprio). */
#include "../conform.h"
int main(void)
{
	int pol;
	struct sched_param sp;
	OK(pthread_getschedparam(pthread_self(), &pol, &sp));
	int r = pthread_setschedprio(pthread_self(), sched_get_priority_max(pol) + 10);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
