/* A semaphore initialised with pshared non-zero in shared memory is shared
 * between processes: a child's sem_post wakes the parent's sem_wait (POSIX
 * sem_init). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	sem_t *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	CHECK(sem_init(s, 1, 0) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		sem_post(s);
		_exit(0);
	}
	CHECK(sem_wait(s) == 0);
	int st;
	waitpid(pid, &st, 0);
	pass();
}
