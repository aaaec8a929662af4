/* A process-shared read-write lock in shared memory excludes a writer in a
 * child process while the parent holds it for reading (POSIX
 * pthread_rwlockattr_setpshared). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	pthread_rwlockattr_t a;
	pthread_rwlock_t *l = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(l != MAP_FAILED);
	OK(pthread_rwlockattr_init(&a));
	OK(pthread_rwlockattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_rwlock_init(l, &a));
	OK(pthread_rwlock_rdlock(l));
	pid_t pid = fork();
	if (pid == 0) {
		int r1 = pthread_rwlock_trywrlock(l);
		int r2 = pthread_rwlock_tryrdlock(l);
		if (r2 == 0)
			pthread_rwlock_unlock(l);
		_exit(r1 == EBUSY && r2 == 0 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	OK(pthread_rwlock_unlock(l));
	pass();
}
