/* A PTHREAD_MUTEX_NORMAL mutex relocked by its owner deadlocks: the owner
 * does not get it back (POSIX pthread_mutexattr_settype, NORMAL type: no
 * deadlock detection).  Checked in a child process that must still be stuck
 * when the parent ends it. */
#include "../conform.h"
#include <sys/wait.h>
int main(void)
{
	int fd[2];
	CHECK(pipe(fd) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_mutexattr_t a;
		pthread_mutex_t m;
		pthread_mutexattr_init(&a);
		pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);
		pthread_mutex_init(&m, &a);
		pthread_mutex_lock(&m);
		write(fd[1], "l", 1);
		pthread_mutex_lock(&m);
		write(fd[1], "x", 1);
		_exit(0);
	}
	char c;
	CHECK(read(fd[0], &c, 1) == 1 && c == 'l');
	settle(100);
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	CHECK(WIFSIGNALED(st));
	pass();
}
