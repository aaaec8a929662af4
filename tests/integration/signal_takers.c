/* Process-directed signals sent back to back, each taken by a different
 * parked thread: main blocks them all, reader i unblocks only its own
 * real-time signal and sits in a read of an empty pipe.  Natively the
 * kernel hands each signal to the one thread that takes it, and every read
 * ends with EINTR, its handler run on that reader with the sender's
 * siginfo.  Under the shim each signal lands on some M and is forwarded to
 * the G that takes it; a parked G's wait is ended by sysmon, which must
 * hear of every such G, not only the last one asked for before it looked. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define READERS 16
#define ROUNDS 20

static int pfd[READERS][2];
static pthread_t reader_id[READERS];
static volatile int result[READERS]; /* 0: in its read, 1: EINTR, 2: anything else */
static volatile int on_reader[READERS], from_us[READERS];
static volatile int parked;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int i = sig - SIGRTMIN;
	on_reader[i] = pthread_equal(pthread_self(), reader_id[i]);
	from_us[i] = si->si_code == SI_USER && si->si_pid == getpid();
}

static void *reader(void *arg)
{
	int i = (int)(long)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN + i);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	__atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
	char c;
	ssize_t r = read(pfd[i][0], &c, 1);
	result[i] = r < 0 && errno == EINTR ? 1 : 2;
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigset_t all;
	sigemptyset(&all);
	for (int i = 0; i < READERS; i++) {
		handle_info(SIGRTMIN + i, on_sig, 0);
		sigaddset(&all, SIGRTMIN + i);
	}
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* inherited by the readers */

	int ended = 0, handled_there = 0, siginfo_ok = 0, gs = 1;
	for (int round = 0; round < ROUNDS; round++) {
		parked = 0;
		for (int i = 0; i < READERS; i++) {
			if (pipe(pfd[i]) != 0)
				return perror("pipe"), 1;
			result[i] = on_reader[i] = from_us[i] = 0;
			pthread_create(&reader_id[i], NULL, reader, (void *)(long)i);
		}
		while (parked < READERS)
			pause_us(1000);
		pause_us(20000); /* into their reads */
		if (round == 0)
			gs = threads_are_gs(kernel_threads(), READERS + 1);
		for (int i = 0; i < READERS; i++)
			kill(getpid(), SIGRTMIN + i);
		/* Natively they end at once; wait up to 5 s, then unstick them. */
		for (int w = 0; w < 5000; w++) {
			int n = 0;
			for (int i = 0; i < READERS; i++)
				n += result[i] != 0;
			if (n == READERS)
				break;
			pause_us(1000);
		}
		for (int i = 0; i < READERS; i++) {
			if (result[i] == 0 && write(pfd[i][1], "x", 1) != 1)
				perror("write");
			pthread_join(reader_id[i], NULL);
			ended += result[i] == 1;
			handled_there += on_reader[i];
			siginfo_ok += from_us[i];
			close(pfd[i][0]);
			close(pfd[i][1]);
		}
	}
	if (ended != READERS * ROUNDS)
		fprintf(stderr, "%d of %d reads were not ended by their signal\n", READERS * ROUNDS - ended,
			READERS * ROUNDS);
	CHECK(ended == READERS * ROUNDS, "every signal ends the read of the one thread that takes it");
	CHECK(handled_there == READERS * ROUNDS, "each handler runs on that thread");
	CHECK(siginfo_ok == READERS * ROUNDS, "with the sender's siginfo (SI_USER, our pid)");
	CHECK(gs, "the parked readers are Gs (under the shim)");
	printf("%d failed\n", failures);
	return failures != 0;
}
