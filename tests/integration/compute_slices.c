/* Threads that only compute, twice as many as the CPUs, each on its own
 * data and never calling into libc (pbzip2's compressing threads, a
 * parallel sort's workers).  The kernel gives such threads slices of
 * milliseconds; the shim's default slice is 500 us, kept for threads that
 * busy-wait for each other.  A thread that passes no preemption point
 * between its preemptions has its slice doubled, up to 4 ms: under the
 * shim, the threads' CPU time per preemption must come out well above
 * 500 us (at 500 us a slice, pbzip2 -p8 lost its caches at every slice end
 * and ran 1.2-1.8 times as long as natively).  Natively the count is not
 * there to read: the check passes as it prints the same line. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "check.h"

#define MAX_THREADS 16

static uint64_t sink[MAX_THREADS];
static int64_t cpu_ns[MAX_THREADS];

static int64_t thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *compute(void *arg)
{
	long id = (long)arg;
	/* Read first: under the shim a thread's CPU clock counts from the
	 * program's first read of one (docs/compat.md). */
	int64_t start = thread_cpu();
	uint64_t x = 88172645463325252ULL + (uint64_t)id;
	/* about 0.4 s of CPU here (divided under an emulator) */
	for (long i = test_work(400000000L); i > 0; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		__asm__ volatile("" : "+r"(x)); /* no call, and no loop the compiler folds */
	}
	sink[id] = x;
	cpu_ns[id] = thread_cpu() - start;
	return NULL;
}

int main(void)
{
	cpu_set_t set;
	int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 2;
	const char *procs = getenv("GMP_MAXPROCS");
	if (procs && atoi(procs) > 0)
		cpus = atoi(procs);
	int n = 2 * cpus < MAX_THREADS ? 2 * cpus : MAX_THREADS;
	struct gmpshim_stats before, after;
	int shim = gmpshim_stats(&before) == 0;
	pthread_t t[MAX_THREADS];
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], NULL, compute, (void *)i);
	int64_t total = 0;
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		total += cpu_ns[i];
	}
	int ok = 1;
	if (shim && gmpshim_stats(&after) == 0) {
		uint64_t preempts = after.preemptions - before.preemptions;
		double per = preempts ? (double)total / (double)preempts / 1e3 : 1e9;
		ok = per >= 1200;
		if (!ok)
			fprintf(stderr, "%d threads: %.0f us of CPU per preemption (%llu preemptions)\n", n, per,
				(unsigned long long)preempts);
	}
	CHECK(ok, "threads that only compute keep their slices for milliseconds");
	return failures != 0;
}
