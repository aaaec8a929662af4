/* sem_clockwait with an unsupported clock fails with EINVAL (POSIX
 * sem_clockwait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec dl = abs_ms(CLOCK_MONOTONIC, 50);
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_clockwait(&s, CLOCK_PROCESS_CPUTIME_ID, &dl), EINVAL);
	pass();
}
