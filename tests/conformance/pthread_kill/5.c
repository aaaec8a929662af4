/* The action of a signal sent with pthread_kill is process-wide: a signal
 * whose action is to terminate ends the whole process (POSIX pthread_kill).
 * Checked in a child process, which must die by that signal. */
#include "../conform.h"
#include <sys/wait.h>
static sem_t go;
static void *fn(void *a) { sem_wait_ok(&go); return NULL; }
int main(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		sem_init(&go, 0, 0);
		pthread_t t = spawn(fn, NULL);
		pthread_kill(t, SIGTERM);
		for (;;)
			pause();
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	pass();
}
