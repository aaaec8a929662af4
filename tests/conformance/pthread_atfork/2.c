/* The child handler runs in the child only and the parent handler in the
 * parent only (POSIX pthread_atfork). */
#include "../conform.h"
#include <sys/wait.h>
static int in_parent, in_child;
static void parent(void) { in_parent++; }
static void child(void) { in_child++; }
int main(void)
{
	OK(pthread_atfork(NULL, parent, child));
	pid_t pid = fork();
	if (pid == 0)
		_exit(in_child == 1 && in_parent == 0 ? 0 : 1);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(in_parent == 1 && in_child == 0);
	pass();
}
