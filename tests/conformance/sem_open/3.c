/* sem_open without O_CREAT of a name that does not exist fails with ENOENT
 * (POSIX sem_open). */
#include "../conform.h"
#include <fcntl.h>
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-open3-%d", (int)getpid());
	errno = 0;
	CHECK(sem_open(name, 0) == SEM_FAILED && errno == ENOENT);
	pass();
}
