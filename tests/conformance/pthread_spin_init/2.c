/* A process-shared spin lock in shared memory excludes a child process
 * while the parent holds it (POSIX pthread_spin_init, PTHREAD_PROCESS_SHARED). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	pthread_spinlock_t *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	OK(pthread_spin_init(s, PTHREAD_PROCESS_SHARED));
	OK(pthread_spin_lock(s));
	pid_t pid = fork();
	if (pid == 0)
		_exit(pthread_spin_trylock(s) == EBUSY ? 0 : 1);
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	OK(pthread_spin_unlock(s));
	pass();
}
