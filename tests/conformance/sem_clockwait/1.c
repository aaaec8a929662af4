/* sem_clockwait with CLOCK_MONOTONIC on a zero semaphore fails with
 * ETIMEDOUT once that clock passes abstime (POSIX sem_clockwait, Issue 8). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 80), now;
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_clockwait(&s, CLOCK_MONOTONIC, &dl), ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &now);
	CHECK(now.tv_sec > dl.tv_sec || (now.tv_sec == dl.tv_sec && now.tv_nsec >= dl.tv_nsec));
	pass();
}
