/* Posting past SEM_VALUE_MAX fails with EOVERFLOW (POSIX sem_post, Issue 8
 * error; glibc reports it). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	CHECK(sem_init(&s, 0, SEM_VALUE_MAX) == 0);
	EXPECT_ERRNO(sem_post(&s), EOVERFLOW);
	pass();
}
