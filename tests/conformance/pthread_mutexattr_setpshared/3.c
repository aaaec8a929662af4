/* A PTHREAD_PROCESS_SHARED mutex in shared memory excludes a child process:
 * while the parent holds it the child's trylock fails with EBUSY, and after
 * the parent unlocks the child's lock succeeds (POSIX
 * pthread_mutexattr_setpshared). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sem_t *s = (sem_t *)(m + 1);
	CHECK(m != MAP_FAILED);
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_mutex_init(m, &a));
	CHECK(sem_init(s, 1, 0) == 0);
	OK(pthread_mutex_lock(m));
	pid_t pid = fork();
	if (pid == 0) {
		int r1 = pthread_mutex_trylock(m);
		sem_post(s);
		int r2 = pthread_mutex_lock(m);
		pthread_mutex_unlock(m);
		_exit(r1 == EBUSY && r2 == 0 ? 0 : 1);
	}
	sem_wait_ok(s);
	OK(pthread_mutex_unlock(m));
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pass();
}
