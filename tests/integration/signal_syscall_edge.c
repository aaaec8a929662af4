/* Signals whose handler calls into libc (a write to a self-pipe, as
 * libuv's SIGCHLD handler does), sent again and again to threads that
 * make one blocking system call after another (waitpid with WNOHANG on a
 * child that lives on).  Under the shim such a handler could run while
 * the thread was halfway into or out of a system call (entersyscall,
 * exitsyscall), and its own write's exit from the call took a P in the
 * middle: the runtime then died ("bad G status transition", an M running
 * a thread without a P; Node.js under load, about 1 run in 30).  Two Ps
 * only: at one P the shim takes minutes over this many pthread_kills
 * (with the code before the fix too). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define CALLERS 4

static int pfd[2];
static volatile int stop;
static pid_t child;
static long handled, drained, calls[CALLERS];

static void on_usr1(int sig)
{
	(void)sig;
	int saved = errno;
	char c = 1;
	if (write(pfd[1], &c, 1) == 1)
		__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	errno = saved;
}

static void *caller(void *arg)
{
	long *n = arg;
	while (!stop) {
		waitpid(child, NULL, WNOHANG);
		(*n)++;
	}
	return NULL;
}

static void *drainer(void *arg)
{
	(void)arg;
	char buf[256];
	for (;;) {
		ssize_t r = read(pfd[0], buf, sizeof buf);
		if (r <= 0)
			return NULL;
		for (ssize_t i = 0; i < r; i++) {
			if (buf[i] == 0)
				return NULL;
			__atomic_add_fetch(&drained, 1, __ATOMIC_RELAXED);
		}
	}
}

int main(void)
{
	pipe(pfd);
	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	signal(SIGUSR1, on_usr1);
	pthread_t t[CALLERS], d;
	for (int i = 0; i < CALLERS; i++)
		pthread_create(&t[i], NULL, caller, &calls[i]);
	pthread_create(&d, NULL, drainer, NULL);
	long n = test_work(150000);
	for (long i = 0; i < n; i++) {
		pthread_kill(t[i % CALLERS], SIGUSR1);
		if (i % 1000 == 999)
			sched_yield();
	}
	stop = 1;
	for (int i = 0; i < CALLERS; i++)
		pthread_join(t[i], NULL);
	char end = 0;
	write(pfd[1], &end, 1);
	pthread_join(d, NULL);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	int all_called = 1;
	for (int i = 0; i < CALLERS; i++)
		all_called &= calls[i] > 0;
	CHECK(all_called, "every thread made its system calls");
	CHECK(handled > 0 && drained == handled, "every handler's write was read");
	CHECK(made_as_gs(CALLERS + 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
