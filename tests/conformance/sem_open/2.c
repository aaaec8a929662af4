/* sem_open with O_CREAT | O_EXCL of an existing name fails with EEXIST
 * (POSIX sem_open). */
#include "../conform.h"
#include <fcntl.h>
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-open2-%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	CHECK(s != SEM_FAILED);
	errno = 0;
	sem_t *s2 = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	int e = errno;
	sem_unlink(name);
	CHECK(s2 == SEM_FAILED && e == EEXIST);
	pass();
}
