/* pthread_setschedparam on the calling thread with SCHED_OTHER and priority 0
 * succeeds and getschedparam reports it (POSIX pthread_setschedparam). */
#include "../conform.h"
int main(void)
{
	struct sched_param sp = {.sched_priority = 0}, out;
	int pol = -1;
	OK(pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp));
	OK(pthread_getschedparam(pthread_self(), &pol, &out));
	CHECK(pol == SCHED_OTHER && out.sched_priority == 0);
	pass();
}
