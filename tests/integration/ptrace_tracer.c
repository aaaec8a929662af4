/* ptrace belongs to a kernel thread: the tracer is the thread that
 * attached, or, for a child that asked with PTRACE_TRACEME, the thread
 * that forked it, and the kernel refuses (ESRCH) requests from any other
 * thread of the process.  A debugger thread that sleeps between its
 * requests (a pipe read, a condition variable, a sleep) must still reach
 * its tracee afterwards, while other threads run: gdb does this.  Both
 * ways of becoming a tracer are tried, each request after a wait that
 * parks the thread, with threads busy beside it.  The thread has forked
 * a child that stays before, and slept since: for the kernel the
 * PTRACE_TRACEME child's parent is the same thread as that child's. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define BUSY 4
#define ROUNDS 20

static volatile int stop;

static void *busy(void *arg)
{
	(void)arg;
	while (!stop) {
		for (volatile int i = 0; i < 20000; i++)
			;
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
	return NULL;
}

/* A sleep the thread parks for: it resumes wherever the runtime puts it. */
static void nap(void)
{
	nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
}

/* A word the tracee has at the same address: it is a fork of this process. */
static const long marker = 0x5eed1234;

/* ROUNDS reads of the stopped tracee's memory, a nap before each; how
 * many the kernel answered, with the right word. */
static int peek_rounds(pid_t pid)
{
	int ok = 0;
	for (int i = 0; i < ROUNDS; i++) {
		nap();
		errno = 0;
		long v = ptrace(PTRACE_PEEKDATA, pid, (void *)&marker, NULL);
		if (v == marker && errno == 0)
			ok++;
		else
			fprintf(stderr, "ptrace_tracer: PEEKDATA: %s\n", strerror(errno));
	}
	return ok;
}

/* The child stops itself under PTRACE_TRACEME; the parent waits for the
 * stop, reads its memory, and lets it finish.  -1: ptrace refused here. */
static int traceme(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(77);
		raise(SIGSTOP);
		_exit(0);
	}
	int st;
	nap();
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st))
		return WIFEXITED(st) && WEXITSTATUS(st) == 77 ? -1 : 0;
	int ok = peek_rounds(pid);
	nap();
	if (ptrace(PTRACE_CONT, pid, NULL, NULL) != 0) {
		ok = 0;
		kill(pid, SIGKILL); /* left stopped otherwise */
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? ok : 0;
}

/* A child that waits until *wfd, the pipe's write end kept here, is
 * closed; -1 if none could be made. */
static pid_t fork_waiter(int *wfd)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(fd[1]);
		while (read(fd[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(fd[0]);
	*wfd = fd[1];
	return pid;
}

/* The parent attaches to a child that waits on a pipe. */
static int attach(void)
{
	int wfd;
	pid_t pid = fork_waiter(&wfd);
	if (pid < 0)
		return 0;
	nap();
	int st, ok = 0;
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) {
		nap();
		if (waitpid(pid, &st, 0) == pid && WIFSTOPPED(st))
			ok = peek_rounds(pid);
		nap();
		if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0) {
			ok = 0;
			kill(pid, SIGKILL);
		}
	} else if (errno == EPERM) {
		ok = -1;
	}
	close(wfd);
	waitpid(pid, &st, 0);
	return ok;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_t t[BUSY];
	for (int i = 0; i < BUSY; i++)
		pthread_create(&t[i], NULL, busy, NULL);
	int hold;
	pid_t holder = fork_waiter(&hold);
	if (holder < 0)
		return 1;
	nap();
	nap();
	int a = traceme();
	int b = a < 0 ? -1 : attach();
	close(hold);
	waitpid(holder, NULL, 0);
	stop = 1;
	for (int i = 0; i < BUSY; i++)
		pthread_join(t[i], NULL);
	if (a < 0 || b < 0) {
		fprintf(stderr, "ptrace_tracer: ptrace is refused here\n");
		return 77;
	}
	CHECK(a == ROUNDS, "a PTRACE_TRACEME child's tracer reads it after each sleep");
	CHECK(b == ROUNDS, "a PTRACE_ATTACH tracer reads its tracee after each sleep");
	return failures != 0;
}
