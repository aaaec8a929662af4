/* A child forks two grandchildren around a pipe, as a shell runs
 * `a | b` inside $(...): the reader's stdin must be blocking, as it is
 * natively.  The runtime once kept a /proc descriptor open per M; a fork
 * could copy the fd table before sysmon opened it and memory after, and
 * the child then closed "its" descriptor by number, which by then was the
 * child's new epoll instance: the pipe stayed non-blocking and the reader
 * (tr, in bash) failed with EAGAIN. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define ROUNDS 300

static int pipeline(void)
{
	int p[2];
	if (pipe(p) != 0)
		return 2;
	pid_t a = fork();
	if (a == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		_exit(write(1, "x", 1) == 1 ? 0 : 1);
	}
	close(p[1]);
	pid_t b = fork();
	if (b == 0) {
		dup2(p[0], 0);
		close(p[0]);
		/* Raw: what a program the shim does not run would see. */
		long fl = syscall(SYS_fcntl, 0, F_GETFL, 0);
		char c;
		_exit(fl < 0 || (fl & O_NONBLOCK) || read(0, &c, 1) != 1 ? 1 : 0);
	}
	close(p[0]);
	int sa, sb;
	waitpid(a, &sa, 0);
	waitpid(b, &sb, 0);
	return WIFEXITED(sb) && WEXITSTATUS(sb) == 0 ? 0 : 1;
}

int main(void)
{
	int bad = 0;
	for (int i = 0; i < ROUNDS; i++) {
		pid_t s = fork();
		if (s == 0)
			_exit(pipeline());
		int st;
		waitpid(s, &st, 0);
		bad += !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	CHECK(bad == 0, "300 pipelines in a fork child: the reader's stdin blocks and reads");
	return failures != 0;
}
