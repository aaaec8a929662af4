/* sem_open with O_CREAT and a value above SEM_VALUE_MAX fails with EINVAL
 * (POSIX sem_open). */
#include "../conform.h"
#include <fcntl.h>
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-open5-%d", (int)getpid());
	errno = 0;
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, (unsigned)SEM_VALUE_MAX + 1u);
	int e = errno;
	if (s != SEM_FAILED)
		sem_unlink(name);
	CHECK(s == SEM_FAILED && e == EINVAL);
	pass();
}
