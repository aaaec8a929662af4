/* sem_timedwait that would block, with tv_nsec outside [0, 1000 million),
 * fails with EINVAL (POSIX sem_timedwait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec bad = {time(NULL) + 10, 1000000000L};
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_timedwait(&s, &bad), EINVAL);
	bad.tv_nsec = -3;
	EXPECT_ERRNO(sem_timedwait(&s, &bad), EINVAL);
	pass();
}
