/* For SCHED_OTHER the minimum does not exceed the maximum (POSIX
 * sched_get_priority_min). */
#include "../conform.h"
int main(void)
{
	int lo = sched_get_priority_min(SCHED_OTHER), hi = sched_get_priority_max(SCHED_OTHER);
	CHECK(lo != -1 && hi != -1 && lo <= hi);
	pass();
}
