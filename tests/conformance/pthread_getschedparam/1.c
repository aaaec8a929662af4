/* pthread_getschedparam on the calling thread returns a policy and a
 * priority within that policy's range (POSIX pthread_getschedparam). */
#include "../conform.h"
int main(void)
{
	int pol = -1;
	struct sched_param sp;
	OK(pthread_getschedparam(pthread_self(), &pol, &sp));
	CHECK(pol == SCHED_OTHER || pol == SCHED_FIFO || pol == SCHED_RR || pol == SCHED_BATCH ||
	      pol == SCHED_IDLE);
	CHECK(sp.sched_priority >= sched_get_priority_min(pol));
	CHECK(sp.sched_priority <= sched_get_priority_max(pol));
	pass();
}
