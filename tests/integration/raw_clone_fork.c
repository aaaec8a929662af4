/* Children made behind glibc's back, as Qt's QProcess makes them (its
 * forkfd calls syscall(SYS_clone, SIGCHLD, 0, ...)), and through
 * syscall(SYS_fork): the child closes its end of a pipe the parent polls,
 * and exits; the parent's poll sees the pipe's other end go (POLLHUP) when
 * the child exits, not at its own time-out, and the child's exit status
 * comes back.  A second thread in the parent polls its own pipe meanwhile,
 * so the parent's poller is in use.  (Under the shim the child once went on
 * with the parent's netpoller, and its close took away the parent's
 * registration of the shared pipe: the poll slept until its time-out.) */
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static int side[2];

static void *side_poller(void *arg)
{
	(void)arg;
	struct pollfd p = { side[0], POLLIN, 0 };
	return (void *)(intptr_t)poll(&p, 1, 20000);
}

static long elapsed_ms(struct timespec a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
}

/* how: the system call that makes the child. */
static int one_child(long how, const char *what)
{
	int p[2];
	if (pipe(p) != 0)
		return 0;
	long pid = how == SYS_clone ? syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) : syscall(how);
	if (pid == 0) {
		close(p[0]);
		struct timespec ts = { 0, 100000000 };
		syscall(SYS_nanosleep, &ts, NULL);
		_exit(7);
	}
	close(p[1]);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct pollfd pf = { p[0], POLLIN, 0 };
	int r = poll(&pf, 1, 10000);
	long ms = elapsed_ms(t0);
	int st = 0;
	waitpid((pid_t)pid, &st, 0);
	close(p[0]);
	char line[96];
	snprintf(line, sizeof line, "%s: the parent's poll sees the child's exit", what);
	int ok = pid > 0 && r == 1 && (pf.revents & POLLHUP) && ms < 5000 && WIFEXITED(st) && WEXITSTATUS(st) == 7;
	if (!ok)
		fprintf(stderr, "%s: pid %ld poll %d revents %#x after %ld ms, status %#x\n", what, pid, r, pf.revents,
			ms, st);
	CHECK(ok, line);
	return ok;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(side) != 0)
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, side_poller, NULL);
	one_child(SYS_clone, "syscall(SYS_clone, SIGCHLD)");
#ifdef SYS_fork
	one_child(SYS_fork, "syscall(SYS_fork)");
#else
	CHECK(1, "syscall(SYS_fork): the parent's poll sees the child's exit");
#endif
	if (write(side[1], "x", 1) != 1)
		return 1;
	void *r;
	pthread_join(t, &r);
	CHECK((intptr_t)r == 1, "the parent's other poll was woken by its own pipe");
	CHECK(made_as_gs(1), "the thread was made as a G under the shim");
	return failures != 0;
}
