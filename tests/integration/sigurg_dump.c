/* A program with a SIGURG protocol of its own, as haproxy's thread dumps
 * (its DEBUGSIG is SIGURG): one thread asks every other for a report with
 * pthread_kill and waits until each has answered from its handler, with
 * no pause between requests, while busy threads keep the runtime
 * preempting.  SIGURG is a standard signal: two pending instances are one.
 * Were the runtime's preemption requests still on SIGURG, a request that
 * merged with one of them would be lost and the round never end; the
 * runtime must leave the signal to the program (GMP_TIMESLICE=1ms). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "check.h"

#define WORKERS 4
#define SPINNERS 2
#define ROUNDS 300

static volatile int stop;
static unsigned asked, answered; /* bit i: worker i */
static pthread_t workers[WORKERS];
static __thread int self_index = -1;
static int started;

static void on_urg(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	if (self_index >= 0 && (__atomic_load_n(&asked, __ATOMIC_ACQUIRE) & (1u << self_index)))
		__atomic_or_fetch(&answered, 1u << self_index, __ATOMIC_ACQ_REL);
}

/* Workers run their loop as an event-loop thread does: short bursts of
 * work and a yield, never a blocking call. */
static void *worker(void *arg)
{
	self_index = (int)(long)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_ACQ_REL);
	while (!stop) {
		for (volatile int i = 0; i < 20000; i++)
			;
		sched_yield();
	}
	return NULL;
}

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	struct sigaction sa = { 0 };
	sa.sa_sigaction = on_urg;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGURG, &sa, NULL);
	pthread_t sp[SPINNERS];
	for (int i = 0; i < SPINNERS; i++)
		pthread_create(&sp[i], NULL, spinner, NULL);
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&workers[i], NULL, worker, (void *)i);

	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < WORKERS)
		sched_yield();
	int done = 0;
	for (int r = 0; r < ROUNDS; r++) {
		__atomic_store_n(&answered, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&asked, (1u << WORKERS) - 1, __ATOMIC_RELEASE);
		for (int i = 0; i < WORKERS; i++)
			pthread_kill(workers[i], SIGURG);
		/* A lost request is never answered: give up after 20 s. */
		double give_up = now_s() + 20;
		while (__atomic_load_n(&answered, __ATOMIC_ACQUIRE) != (1u << WORKERS) - 1 && now_s() < give_up)
			sched_yield();
		__atomic_store_n(&asked, 0, __ATOMIC_RELEASE);
		if (__atomic_load_n(&answered, __ATOMIC_ACQUIRE) != (1u << WORKERS) - 1) {
			fprintf(stderr, "round %d: answered %#x\n", r, answered);
			break;
		}
		done++;
	}
	stop = 1;
	for (int i = 0; i < WORKERS; i++)
		pthread_join(workers[i], NULL);
	for (int i = 0; i < SPINNERS; i++)
		pthread_join(sp[i], NULL);
	CHECK(done == ROUNDS, "every worker answered every round of SIGURG requests");
	return failures != 0;
}
