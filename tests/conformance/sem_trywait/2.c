/* sem_trywait on a positive semaphore decrements it and returns 0 (POSIX
 * sem_trywait). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	int v;
	CHECK(sem_init(&s, 0, 1) == 0);
	CHECK(sem_trywait(&s) == 0);
	CHECK(sem_getvalue(&s, &v) == 0 && v == 0);
	EXPECT_ERRNO(sem_trywait(&s), EAGAIN);
	pass();
}
