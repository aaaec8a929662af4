/* For a policy that is not defined, sched_get_priority_max and _min return -1
 * with errno EINVAL (POSIX sched_get_priority_max). */
#include "../conform.h"
int main(void)
{
	EXPECT_ERRNO(sched_get_priority_max(12345), EINVAL);
	EXPECT_ERRNO(sched_get_priority_min(12345), EINVAL);
	pass();
}
