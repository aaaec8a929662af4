/* fork runs the prepare handlers in the reverse order of registration, and
 * the parent and child handlers in the order of registration (POSIX
 * pthread_atfork). */
#include "../conform.h"
#include <sys/wait.h>
static char log_[16];
static int n;
static void p1(void) { log_[n++] = 'a'; }
static void p2(void) { log_[n++] = 'b'; }
static void q1(void) { log_[n++] = '1'; }
static void q2(void) { log_[n++] = '2'; }
int main(void)
{
	OK(pthread_atfork(p1, q1, q1));
	OK(pthread_atfork(p2, q2, q2));
	pid_t pid = fork();
	if (pid == 0)
		_exit(strcmp(log_, "ba12") == 0 ? 0 : 1);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(strcmp(log_, "ba12") == 0);
	pass();
}
