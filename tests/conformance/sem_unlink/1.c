/* After sem_unlink the name is gone: sem_open without O_CREAT fails with
 * ENOENT, while the open handle still works (POSIX sem_unlink). */
#include "../conform.h"
#include <fcntl.h>
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-unlink1-%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 1);
	CHECK(s != SEM_FAILED);
	CHECK(sem_unlink(name) == 0);
	errno = 0;
	CHECK(sem_open(name, 0) == SEM_FAILED && errno == ENOENT);
	CHECK(sem_wait(s) == 0);
	CHECK(sem_post(s) == 0);
	CHECK(sem_close(s) == 0);
	pass();
}
