/* sem_timedwait on a zero semaphore fails with ETIMEDOUT once abstime
 * (CLOCK_REALTIME) has passed, not before (POSIX sem_timedwait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec dl = abs_ms(CLOCK_REALTIME, 100), now;
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_timedwait(&s, &dl), ETIMEDOUT);
	clock_gettime(CLOCK_REALTIME, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	pass();
}
