/* Preemption in the middle of malloc, free and stdio must be harmless:
 * the shim never stops a thread inside libc, so no allocator or stream
 * lock is held by a thread that is off its M.  Workers allocate, fill,
 * check and free blocks of random sizes and format lines into a shared
 * stream, while CPU-bound threads force preemption (GMP_TIMESLICE=1ms). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define WORKERS 4
#define SPINNERS 2
#define ITERS 200000
#define SLOTS 64

static volatile int stop;
static FILE *sink;
static long corrupt[WORKERS];
static long lines[WORKERS];

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&stop);
	return NULL;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	unsigned seed = (unsigned)id * 2654435761u + 1;
	unsigned char *slot[SLOTS] = { 0 };
	size_t size[SLOTS] = { 0 };
	for (long i = 0; i < ITERS; i++) {
		int k = (int)(rand_r(&seed) % SLOTS);
		if (slot[k]) {
			for (size_t j = 0; j < size[k]; j++)
				if (slot[k][j] != (unsigned char)(k + id))
					corrupt[id]++;
			free(slot[k]);
		}
		size[k] = 1 + rand_r(&seed) % 4096;
		slot[k] = malloc(size[k]);
		memset(slot[k], k + (int)id, size[k]);
		/* A busy loop of our own between calls: preemption lands here
		 * as well as in libc. */
		for (volatile int spin = 0; spin < 50; spin++)
			;
		if (i % 100 == 0) {
			fprintf(sink, "worker %ld line %ld value %g\n", id, i, (double)i / 7);
			lines[id]++;
		}
	}
	for (int k = 0; k < SLOTS; k++)
		free(slot[k]);
	return NULL;
}

int main(void)
{
	char *buf = NULL;
	size_t len = 0;
	sink = open_memstream(&buf, &len);
	pthread_t s[SPINNERS], w[WORKERS];
	for (long i = 0; i < SPINNERS; i++)
		pthread_create(&s[i], NULL, spinner, NULL);
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&w[i], NULL, worker, (void *)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(w[i], NULL);
	stop = 1;
	for (int i = 0; i < SPINNERS; i++)
		pthread_join(s[i], NULL);
	fclose(sink);

	long bad = 0, expect = 0;
	for (int i = 0; i < WORKERS; i++) {
		bad += corrupt[i];
		expect += lines[i];
	}
	CHECK(bad == 0, "every block kept its contents until freed");
	/* Every line whole: stdio's lock kept writers apart. */
	long n = 0, whole = 0;
	for (char *p = buf, *nl; p < buf + len && (nl = strchr(p, '\n')); p = nl + 1) {
		long id, i;
		double v;
		n++;
		if (sscanf(p, "worker %ld line %ld value %lg", &id, &i, &v) == 3 && id >= 0 && id < WORKERS)
			whole++;
	}
	CHECK(n == expect && whole == expect, "every formatted line arrived whole");
	free(buf);
	return failures != 0;
}
