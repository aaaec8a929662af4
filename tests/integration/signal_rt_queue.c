/* Real-time signals queue: sent to the process several times while every
 * thread blocks them, each instance reaches a handler, in the order sent,
 * with its own value, once a thread unblocks the signal (LTP's
 * sigaction/29-1).  Under the shim the kernel delivers them as that
 * thread's pthread_sigmask returns from its rt_sigprocmask, inside the
 * runtime: there they waited on the thread in one pending slot, and ten
 * came out as one, with the last value.
 *
 * Rounds alternate between main and a worker as the thread that unblocks
 * (the other one blocks the signal throughout), and between SIG_UNBLOCK
 * and SIG_SETMASK. */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"

#define PER_ROUND 8

static int sig;
static volatile int got[PER_ROUND + 1], ngot;
static long misordered, miscounted;

static void on_signal(int s, siginfo_t *si, void *uc)
{
	(void)s;
	(void)uc;
	if (ngot <= PER_ROUND)
		got[ngot] = si->si_value.sival_int;
	ngot++;
}

/* Queues PER_ROUND values while the caller blocks sig, unblocks it with
 * how, and checks what its handler saw once the call returned. */
static void round_on_this_thread(long r)
{
	sigset_t one, before;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_BLOCK, &one, &before);
	ngot = 0;
	for (int i = 0; i < PER_ROUND; i++)
		sigqueue(getpid(), sig, (union sigval){ .sival_int = i });
	if (r % 2 == 0) {
		pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	} else {
		sigset_t none;
		sigemptyset(&none);
		pthread_sigmask(SIG_SETMASK, &none, NULL);
	}
	int n = ngot;
	if (n != PER_ROUND)
		miscounted++;
	for (int i = 0; i < n && i < PER_ROUND; i++)
		if (got[i] != i) {
			misordered++;
			break;
		}
	pthread_sigmask(SIG_BLOCK, &one, NULL);
}

static sem_t go, done;
static volatile int stop;

static void *worker(void *arg)
{
	(void)arg;
	for (long r = 0;; r++) {
		sem_wait(&go);
		if (stop)
			return NULL;
		round_on_this_thread(r);
		sem_post(&done);
	}
}

int main(void)
{
	sig = SIGRTMIN + 1;
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigaction(sig, &sa, NULL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_BLOCK, &one, NULL); /* and so every thread made from here */
	sem_init(&go, 0, 0);
	sem_init(&done, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);

	long rounds = test_work(400);
	for (long r = 0; r < rounds; r++) {
		if (r % 4 < 2) {
			round_on_this_thread(r);
		} else {
			sem_post(&go);
			sem_wait(&done);
		}
	}
	stop = 1;
	sem_post(&go);
	pthread_join(t, NULL);

	if (miscounted || misordered)
		fprintf(stderr, "of %ld rounds of %d: %ld with another count, %ld out of order\n", rounds, PER_ROUND,
			miscounted, misordered);
	CHECK(miscounted == 0, "every queued instance reached the handler, once");
	CHECK(misordered == 0, "the instances came in the order sent, each with its value");
	CHECK(made_as_gs(1), "the threads were made as Gs under the shim");
	return failures != 0;
}
