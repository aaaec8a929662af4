/* sem_unlink of a name that does not exist fails with ENOENT (POSIX
 * sem_unlink). */
#include "../conform.h"
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-unlink2-%d", (int)getpid());
	EXPECT_ERRNO(sem_unlink(name), ENOENT);
	pass();
}
