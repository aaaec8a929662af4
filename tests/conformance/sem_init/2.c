/* sem_init with a value above SEM_VALUE_MAX fails with EINVAL; SEM_VALUE_MAX
 * itself is accepted and at least _POSIX_SEM_VALUE_MAX (POSIX sem_init,
 * limits.h). */
#include "../conform.h"
int main(void)
{
	sem_t s;
	CHECK(SEM_VALUE_MAX >= _POSIX_SEM_VALUE_MAX);
	EXPECT_ERRNO(sem_init(&s, 0, (unsigned)SEM_VALUE_MAX + 1u), EINVAL);
	CHECK(sem_init(&s, 0, SEM_VALUE_MAX) == 0);
	pass();
}
