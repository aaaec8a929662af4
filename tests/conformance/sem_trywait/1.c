/* sem_trywait on a zero semaphore fails with EAGAIN without blocking (POSIX
 * sem_trywait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	CHECK(sem_init(&s, 0, 0) == 0);
	EXPECT_ERRNO(sem_trywait(&s), EAGAIN);
	pass();
}
