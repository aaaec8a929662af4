/* exec from a thread other than main while other threads are busy, parked
 * and blocked in reads: the new image is the same process (same PID), with
 * one thread, and a pipe made before the exec is an ordinary blocking pipe
 * in it.  Also vfork+exec from a thread. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile long spins;
static int fds[2], idle[2];
static char *self;

static void *spinner(void *arg)
{
	(void)arg;
	for (;;)
		spins++;
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	for (;;)
		pthread_cond_wait(&cv, &mu);
	return NULL;
}

static void *reader(void *arg)
{
	(void)arg;
	char c;
	read(idle[0], &c, 1);
	return NULL;
}

/* The new image: reads what the old one left in the pipe, then checks
 * that the pipe blocks as a pipe should (no O_NONBLOCK left behind). */
static int after_exec(const char *pid_before)
{
	CHECK(atoi(pid_before) == getpid(), "exec from a thread keeps the process ID");
	int kt = kernel_threads();
	CHECK(under_shim() ? threads_are_gs(kt, 1) : kt == 1,
	      "the new image starts with one thread (under the shim: the runtime's)");
	char buf[16] = { 0 };
	ssize_t n = read(fds[0], buf, sizeof buf - 1);
	CHECK(n == 5 && strcmp(buf, "hello") == 0, "data written before the exec is read after it");
	CHECK(!(fcntl(fds[0], F_GETFL) & O_NONBLOCK), "the inherited pipe is blocking");
	pid_t child = fork();
	if (child == 0) {
		usleep(20000);
		write(fds[1], "late", 4);
		_exit(0);
	}
	n = read(fds[0], buf, sizeof buf - 1); /* blocks until the child writes */
	CHECK(n == 4, "a read on it waits for a writer");
	waitpid(child, NULL, 0);
	return failures != 0;
}

static void *execer(void *arg)
{
	(void)arg;
	pid_t v = vfork();
	if (v == 0) {
		execl("/bin/sh", "sh", "-c", "exit 7", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(v, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 7, "vfork+exec from a thread: exit status 7");
	write(fds[1], "hello", 5);
	char pid[16];
	snprintf(pid, sizeof pid, "%d", getpid());
	char rfd[16], wfd[16];
	snprintf(rfd, sizeof rfd, "%d", fds[0]);
	snprintf(wfd, sizeof wfd, "%d", fds[1]);
	/* The new image's runtime starts afresh: count the old one's Gs here. */
	CHECK(made_as_gs(11), "11 threads were made before the exec");
	fflush(stdout);
	execl(self, self, "after", pid, rfd, wfd, (char *)NULL);
	CHECK(0, "execl");
	exit(1);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "after") == 0) {
		fds[0] = atoi(argv[3]);
		fds[1] = atoi(argv[4]);
		return after_exec(argv[2]);
	}
	self = argv[0];
	pipe(fds);
	pipe(idle);
	pthread_t t;
	for (int i = 0; i < 2; i++)
		pthread_create(&t, NULL, spinner, NULL);
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, waiter, NULL);
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, reader, NULL);
	pthread_create(&t, NULL, execer, NULL);
	pthread_join(t, NULL); /* never returns: the exec replaces us */
	return 1;
}
