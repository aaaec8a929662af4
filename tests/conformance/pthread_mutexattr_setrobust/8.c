/* A process-shared robust mutex held by a process that dies is reported with
 * EOWNERDEAD to the next locker in another process (POSIX
 * pthread_mutexattr_setrobust: owner "process" termination). */
#include "../conform.h"
#include <sys/mman.h>
#include <sys/wait.h>
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED));
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	OK(pthread_mutex_init(m, &a));
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutex_lock(m);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	EXPECT(pthread_mutex_lock(m), EOWNERDEAD);
	OK(pthread_mutex_consistent(m));
	OK(pthread_mutex_unlock(m));
	pass();
}
