/* A signal every thread blocks stays pending on the process, even right
 * after threads that took such signals blocked them or exited.
 *
 * Each round, short-lived workers unblock SIGUSR1 and SIGUSR2, block and
 * unblock them as they run, and exit, while main sigqueue()s SIGUSR1 to
 * the process and waits for a worker's handler.  Then, with every thread
 * blocking both, main sends each to the process with kill(): natively it
 * waits, pending, for main's sigtimedwait, and no handler runs.
 *
 * Under the shim an M with no G takes the process's signals for Gs that
 * are parked, so it blocks what every G blocks, and a thread that blocks
 * a signal last asks each such M to block it too.  That request could
 * land inside the trampoline of a signal the M was taking: written into
 * the trampoline's context only, it was undone as the trampoline
 * returned, while the M's record said the signal was blocked.  The M then
 * took the kill()ed signal and ran its handler with every thread blocking
 * it (half the runs at 2 Ps). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

#include "check.h"
#include "sigchurn.h"

static sem_t handled;
static volatile int stop;
static sigset_t usersigs;

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	sem_post(&handled);
	errno = saved;
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(long)arg;
	pthread_sigmask(SIG_UNBLOCK, &usersigs, NULL);
	for (int turn = 0; turn < 4; turn++) {
		seed = seed * 1103515245 + 12345;
		for (volatile unsigned spin = (seed >> 16) % 20000; spin; spin--)
			;
		pthread_sigmask(turn & 1 ? SIG_UNBLOCK : SIG_BLOCK, &usersigs, NULL);
	}
	return NULL;
}

int main(void)
{
	sigchurn_block_usr(&usersigs);
	sem_init(&handled, 0, 0);
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	long rounds = test_work(400), per_round = 30, queued = 0, early = 0, lost = 0;
	for (long r = 0; r < rounds; r++) {
		stop = 0;
		pthread_t c;
		struct sigchurn ch = { worker, &stop, r * 1000 };
		pthread_create(&c, NULL, sigchurn_run, &ch);
		for (long i = 0; i < per_round; i++, queued++)
			if (sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = (int)i }) != 0 ||
			    !sigchurn_wait_handled(&handled))
				break;
		stop = 1;
		pthread_join(c, NULL);
		for (int sig = SIGUSR1; sig <= SIGUSR2; sig += SIGUSR2 - SIGUSR1) {
			int before, after;
			sem_getvalue(&handled, &before);
			kill(getpid(), sig);
			pause_us(1000);
			sem_getvalue(&handled, &after);
			sigset_t pend;
			sigpending(&pend);
			if (after != before || !sigismember(&pend, sig))
				early++;
			struct timespec five = { 5, 0 };
			sigset_t one;
			sigemptyset(&one);
			sigaddset(&one, sig);
			if (sigtimedwait(&one, NULL, &five) != sig)
				lost++;
		}
	}
	if (queued != rounds * per_round || early || lost)
		fprintf(stderr, "handled %ld of %ld queued; of %ld kill()ed while all blocked: %ld not pending, %ld "
				"not for sigtimedwait\n",
			queued, rounds * per_round, 2 * rounds, early, lost);
	CHECK(queued == rounds * per_round, "every sigqueue()d signal reached a worker's handler");
	CHECK(early == 0, "a signal every thread blocks stayed pending, its handler not run");
	CHECK(lost == 0, "sigtimedwait took each signal every thread blocks");
	CHECK(made_as_gs(SIGCHURN_WORKERS + 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
