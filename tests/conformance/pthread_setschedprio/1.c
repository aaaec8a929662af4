/* pthread_setschedprio with a priority valid for the thread's policy
 * succeeds and leaves the policy unchanged (POSIX pthread_setschedprio). */
#include "../conform.h"
int main(void)
{
	int pol, pol2;
	struct sched_param sp;
	OK(pthread_getschedparam(pthread_self(), &pol, &sp));
	OK(pthread_setschedprio(pthread_self(), sp.sched_priority));
	OK(pthread_getschedparam(pthread_self(), &pol2, &sp));
	CHECK(pol2 == pol);
	pass();
}
