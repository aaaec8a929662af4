/* What a parked thread costs in memory: 2,000 threads with default
 * attributes each wait on a condition variable, and together they must not
 * grow the process by more than 10 KiB each.  Natively a thread touches two
 * pages (its stack's top, and its TCB with static TLS: 8.3-8.5 KiB measured);
 * under the shim the same two, one with the top of the stack and one with
 * the TLS, TCB and the G's hot fields, while the G's cold fields (keys, the
 * name, the resolver state) stay on a page nobody touches (docs/design.md,
 * A million threads).  Creating a thread once copied the creator's empty
 * name into that page, a third page per thread (12.4 KiB). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define NTHREADS 2000
#define MAX_KB_PER_THREAD 10.0

static struct muster muster = MUSTER_INIT;

static void *waiter(void *arg)
{
	(void)arg;
	muster_arrive(&muster, NTHREADS);
	return NULL;
}

int main(void)
{
	static pthread_t t[NTHREADS];
	long base = rss_kb();
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, waiter, NULL) != 0) {
			fprintf(stderr, "pthread_create %d failed\n", i);
			return 1;
		}
	muster_wait_all(&muster, NTHREADS);
	double per = (double)(rss_kb() - base) / NTHREADS;
	int kt = kernel_threads();
	muster_release(&muster);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);

	CHECK(threads_are_gs(kt, NTHREADS), "2000 threads parked: Gs on a few kernel threads under the shim");
	CHECK(per > 4.0, "the threads grew the process (else nothing is measured)");
	if (per > MAX_KB_PER_THREAD)
		fprintf(stderr, "%.2f KiB per parked thread\n", per);
	CHECK(per <= MAX_KB_PER_THREAD, "a parked thread costs at most 10 KiB");
	return failures != 0;
}
