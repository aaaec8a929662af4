/* sem_open with O_CREAT creates a named semaphore with the given value, and
 * sem_close returns 0 (POSIX sem_open, sem_close). */
#include "../conform.h"
#include <fcntl.h>
int main(void)
{
	char name[64];
	int v = -1;
	snprintf(name, sizeof name, "/conform-open1-%d", (int)getpid());
	sem_t *s = sem_open(name, O_CREAT | O_EXCL, 0600, 4);
	CHECK(s != SEM_FAILED);
	sem_unlink(name);
	CHECK(sem_getvalue(s, &v) == 0 && v == 4);
	CHECK(sem_close(s) == 0);
	pass();
}
