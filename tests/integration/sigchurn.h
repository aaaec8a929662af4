/* Threads that come and go while process-directed signals arrive
 * (signal_retarget, signal_idle_mask): a churn thread keeps
 * SIGCHURN_WORKERS short-lived workers alive, joining each and starting
 * another, until *stop. */
#ifndef GMP_TEST_SIGCHURN_H
#define GMP_TEST_SIGCHURN_H

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

#include "check.h"

#define SIGCHURN_WORKERS 2

struct sigchurn {
	void *(*worker)(void *); /* given a number, new for each worker */
	volatile int *stop;
	long first;              /* the first worker's number */
};

static inline void *sigchurn_run(void *arg)
{
	struct sigchurn *c = arg;
	pthread_t w[SIGCHURN_WORKERS];
	long n = c->first;
	for (int i = 0; i < SIGCHURN_WORKERS; i++)
		pthread_create(&w[i], NULL, c->worker, (void *)n++);
	while (!*c->stop) {
		for (int i = 0; i < SIGCHURN_WORKERS; i++) {
			pthread_join(w[i], NULL);
			pthread_create(&w[i], NULL, c->worker, (void *)n++);
		}
	}
	for (int i = 0; i < SIGCHURN_WORKERS; i++)
		pthread_join(w[i], NULL);
	return NULL;
}

/* SIGUSR1 and SIGUSR2 in *set, blocked by the caller and so by every
 * thread it makes until one unblocks them. */
static inline void sigchurn_block_usr(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, set, NULL);
}

/* Waits for one signal's handler to post s; a signal lost for good shows
 * as 30 s without one. */
static inline int sigchurn_wait_handled(sem_t *s)
{
	struct timespec ts = deadline_in(CLOCK_REALTIME, 30000000000L);
	while (sem_timedwait(s, &ts) != 0)
		if (errno != EINTR)
			return 0;
	return 1;
}

#endif
