/* Process-directed signals while the threads that take them come and go:
 * short-lived workers unblock SIGUSR1 and SIGUSR2, and block and unblock
 * them again as they run; every other thread blocks them.  A sender sends
 * one signal at a time to the process and waits for its handler.  The
 * kernel keeps such a signal pending on the process, not on the thread
 * it woke for it: a worker that exits or blocks it before handling it
 * leaves it to another worker, or to the next one that unblocks it.
 * Under the shim the signal was forwarded to one G and stayed pending on
 * it: a worker that exited with it lost it for good (LTP's
 * pthread_once/6-1 hung 7 runs in 10 at two Ps).
 *
 * SIGUSR1 comes from sigqueue (its value numbers it), SIGUSR2 from a child
 * process's kill(): the handler must see the sender the kernel reports
 * (si_code, si_pid, si_value) whichever thread ends up running it. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "sigchurn.h"

static sem_t handled;
static volatile int stop;
static volatile int expect_value;
static volatile pid_t expect_pid;
static int expect_code;
static long wrong_info;
static struct {
	siginfo_t got;
	int code, pid, value; /* what it should have been */
} first_wrong;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int saved = errno;
	if (si->si_code != expect_code || si->si_pid != expect_pid ||
	    (sig == SIGUSR1 && si->si_value.sival_int != expect_value)) {
		if (__atomic_add_fetch(&wrong_info, 1, __ATOMIC_RELAXED) == 1) {
			first_wrong.got = *si;
			first_wrong.code = expect_code;
			first_wrong.pid = expect_pid;
			first_wrong.value = expect_value;
		}
	}
	sem_post(&handled);
	errno = saved;
}

static sigset_t usersigs;

/* Takes the signals for a while, letting them in and out, then exits. */
static void *worker(void *arg)
{
	unsigned seed = (unsigned)(long)arg;
	pthread_sigmask(SIG_UNBLOCK, &usersigs, NULL);
	seed = seed * 1103515245 + 12345;
	for (volatile unsigned spin = (seed >> 16) % 40000; spin; spin--)
		;
	/* Then blocks them, as a thread leaving a section where it takes
	 * them does, and goes on a while before it exits. */
	pthread_sigmask(SIG_BLOCK, &usersigs, NULL);
	for (volatile unsigned spin = (seed >> 8) % 20000; spin; spin--)
		;
	return NULL;
}

int main(void)
{
	sigchurn_block_usr(&usersigs);
	sem_init(&handled, 0, 0);
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	/* The child sends SIGUSR2 for each byte it reads. */
	int req[2];
	pipe(req);
	pid_t child = fork();
	if (child == 0) {
		close(req[1]);
		char c;
		while (read(req[0], &c, 1) == 1)
			kill(getppid(), SIGUSR2);
		_exit(0);
	}
	close(req[0]);

	pthread_t c;
	struct sigchurn ch = { worker, &stop, 0 };
	pthread_create(&c, NULL, sigchurn_run, &ch);
	long n = test_work(600), queued = 0, killed = 0;
	expect_code = SI_QUEUE;
	expect_pid = getpid();
	for (long i = 0; i < n; i++, queued++) {
		expect_value = (int)i;
		if (sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = (int)i }) != 0 ||
		    !sigchurn_wait_handled(&handled))
			break;
	}
	expect_code = SI_USER;
	expect_pid = child;
	for (long i = 0; i < n; i++, killed++)
		if (write(req[1], "k", 1) != 1 || !sigchurn_wait_handled(&handled))
			break;
	stop = 1;
	pthread_join(c, NULL);
	close(req[1]);
	waitpid(child, NULL, 0);

	if (queued != n || killed != n)
		fprintf(stderr, "handled %ld of %ld queued, %ld of %ld killed\n", queued, n, killed, n);
	if (wrong_info)
		fprintf(stderr, "%ld wrong; first: signal %d si_code %d si_pid %d si_value %d, want %d %d %d\n",
			wrong_info, first_wrong.got.si_signo, first_wrong.got.si_code, (int)first_wrong.got.si_pid,
			first_wrong.got.si_value.sival_int, first_wrong.code, first_wrong.pid, first_wrong.value);
	CHECK(queued == n, "every sigqueue()d signal reached a worker's handler");
	CHECK(killed == n, "every signal of the child's kill() reached a worker's handler");
	CHECK(wrong_info == 0, "each handler saw its sender's si_code, si_pid and si_value");
	CHECK(made_as_gs(SIGCHURN_WORKERS + 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
