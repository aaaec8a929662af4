/* SCHED_FIFO offers at least 32 distinct priorities: max - min >= 31 (POSIX
 * sched_get_priority_max, sched.h). */
#include "../conform.h"
int main(void)
{
	int lo = sched_get_priority_min(SCHED_FIFO), hi = sched_get_priority_max(SCHED_FIFO);
	CHECK(lo != -1 && hi != -1);
	CHECK(hi - lo >= 31);
	pass();
}
