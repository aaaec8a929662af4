/* A program that blocks signals as it starts and sends them to its own
 * process finds them pending, as LTP's fork/12-1 does: natively it has
 * one thread, which blocks them.  Under the shim the runtime's own threads
 * (sysmon, the template thread) are made as it starts, from main, and
 * NPTL starts a thread with its creator's mask until the thread's body
 * blocks everything: one that had not got that far took a signal main
 * blocked, and its default action ended the process (fork/12-1: 6 runs in
 * 40 at two Ps).
 *
 * Each round runs this program afresh, so that the runtime starts again,
 * as a child ("child" argument) that blocks SIGUSR1 and SIGUSR2 first
 * thing, sends both to its process, waits for the runtime's threads to
 * run, and checks that both are pending. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int child(void)
{
	sigset_t usr, pend;
	sigemptyset(&usr);
	sigaddset(&usr, SIGUSR1);
	sigaddset(&usr, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr, NULL);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR2);
	struct timespec ts = { 0, 2000000 };
	while (nanosleep(&ts, &ts) != 0)
		;
	sigpending(&pend);
	return sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGUSR2) ? 0 : 3;
}

static long rounds, killed, not_pending;

static void *spawner(void *arg)
{
	(void)arg;
	for (long i = 0; i < rounds; i++) {
		pid_t p = fork();
		if (p == 0) {
			execl("/proc/self/exe", "signal_startup", "child", (char *)NULL);
			_exit(127);
		}
		int st;
		if (p < 0 || waitpid(p, &st, 0) != p)
			break;
		if (WIFSIGNALED(st))
			killed++;
		else if (WEXITSTATUS(st) != 0)
			not_pending++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child();
	rounds = test_work(200);
	pthread_t t;
	pthread_create(&t, NULL, spawner, NULL);
	pthread_join(t, NULL);
	if (killed || not_pending)
		fprintf(stderr, "of %ld children: %ld killed by a signal they blocked, %ld without both pending\n",
			rounds, killed, not_pending);
	CHECK(killed == 0, "no child was ended by a signal it blocked before sending it");
	CHECK(not_pending == 0, "each child found both signals pending");
	CHECK(made_as_gs(1), "the threads were made as Gs under the shim");
	return failures != 0;
}
