/* sem_timedwait with an abstime already in the past on a zero semaphore
 * fails with ETIMEDOUT at once (POSIX sem_timedwait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	struct timespec past = abs_ms(CLOCK_REALTIME, -2000);
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_timedwait(&s, &past), ETIMEDOUT);
	pass();
}
