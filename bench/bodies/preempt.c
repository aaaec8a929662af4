/* CPU-bound work and signals: what preemption and per-thread signal
 * delivery cost. */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include "bodies.h"

#define WORKERS 4

static volatile uint64_t sink;

/* One unit of work: a chain of dependent arithmetic with no calls. */
static uint64_t unit(uint64_t x)
{
	for (int i = 0; i < 2000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

static void *worker(void *arg)
{
	long n = (long)arg;
	uint64_t x = (uintptr_t)&n | 1;
	for (long i = 0; i < n; i++)
		x = unit(x);
	sink += x;
	return NULL;
}

/* iters units shared by 4 threads that never block: more threads than
 * Ps, so under the shim only preemption interleaves them. */
void bench_cpu_bound(long iters)
{
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(iters / WORKERS));
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
}

static volatile int handled;

static void on_signal(int sig)
{
	(void)sig;
	handled++;
}

/* A signal sent to the calling thread and handled there. */
void bench_pthread_kill_self(long iters)
{
	struct sigaction sa = { 0 }, old;
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, &old);
	pthread_t self = pthread_self();
	for (long i = 0; i < iters; i++)
		pthread_kill(self, SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
}
