/* The stack pages of threads that ended go back to the kernel: a burst
 * of 2,000 threads that each touched 128 KiB of stack must not leave the
 * process 250 MiB bigger, neither while it idles nor while other threads
 * keep every CPU busy.  (NPTL unmaps stacks past its 40 MiB cache at once;
 * the shim keeps a few hundred warm and gives the rest back from sysmon,
 * all at once when the program is quiet, in paced rounds while it runs.) */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NTHREADS 2000
#define TOUCH (128 * 1024)
/* What may stay: NPTL's cache, or the shim's warm Gs (256 on the global
 * lists, 64 on each P's), with room for the allocator. */
#define KEEP_KB (112 * 1024)

static struct muster muster = MUSTER_INIT;

static void *toucher(void *arg)
{
	(void)arg;
	volatile char buf[TOUCH];
	for (size_t i = 0; i < sizeof buf; i += 4096)
		buf[i] = 1;
	muster_arrive(&muster, NTHREADS);
	return (void *)(long)buf[4096];
}

/* All NTHREADS alive at once, each on its own stack; then all joined.
 * Returns the RSS growth while they were alive. */
static long burst(long base, int *gs_ok)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, TOUCH + 64 * 1024);
	pthread_t *t = calloc(NTHREADS, sizeof *t);
	muster.in = muster.go = 0;
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], &a, toucher, NULL) != 0) {
			fprintf(stderr, "pthread_create %d failed\n", i);
			exit(1);
		}
	muster_wait_all(&muster, NTHREADS);
	long grown = rss_kb() - base;
	*gs_ok = threads_are_gs(kernel_threads(), 1);
	muster_release(&muster);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	free(t);
	pthread_attr_destroy(&a);
	return grown;
}

/* Whether the RSS comes back under base + KEEP_KB within 30 s. */
static int returned(long base)
{
	for (int i = 0; i < 1500; i++) {
		if (rss_kb() - base < KEEP_KB)
			return 1;
		pause_us(20000);
	}
	fprintf(stderr, "RSS still %ld KiB over the start\n", rss_kb() - base);
	return 0;
}

static volatile int stop;

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

int main(void)
{
	long base = rss_kb();
	int gs_ok;
	long grown = burst(base, &gs_ok);
	CHECK(gs_ok, "2000 threads alive: Gs on a few kernel threads under the shim");
	CHECK(grown > 2 * KEEP_KB, "their stacks grew the process (else nothing is measured)");
	CHECK(returned(base), "their stack pages are returned while the program idles");

	pthread_t s[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&s[i], NULL, spinner, NULL);
	grown = burst(base, &gs_ok);
	CHECK(grown > 2 * KEEP_KB, "a second burst beside busy threads grew it again");
	CHECK(returned(base), "their pages are returned while other threads keep the CPUs busy");
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(s[i], NULL);
	return failures != 0;
}
