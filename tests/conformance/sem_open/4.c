/* Opening the same name again refers to the same semaphore: a post through
 * one handle is seen through the other, also from another process (POSIX
 * sem_open). */
#include "../conform.h"
#include <fcntl.h>
#include <sys/wait.h>
int main(void)
{
	char name[64];
	snprintf(name, sizeof name, "/conform-open4-%d", (int)getpid());
	sem_t *a = sem_open(name, O_CREAT | O_EXCL, 0600, 0);
	CHECK(a != SEM_FAILED);
	pid_t pid = fork();
	if (pid == 0) {
		sem_t *b = sem_open(name, 0);
		_exit(b != SEM_FAILED && sem_post(b) == 0 ? 0 : 1);
	}
	int r = sem_wait(a);
	int st;
	waitpid(pid, &st, 0);
	sem_unlink(name);
	CHECK(r == 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pass();
}
