/* Threads allocate (malloc, calloc, realloc up and down, occasionally
 * above the mmap threshold), fill, check and free blocks of random sizes,
 * and hand blocks to each other through a mutex-protected queue, so that
 * memory is often freed by a thread other than the one that allocated it.
 * Every block carries a pattern derived from its seed, checked on every
 * realloc and before every free. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NTHREADS 16
#define OPS 20000
#define SLOTS 32
#define QCAP 256

struct block {
	size_t size;
	uint32_t seed;
	int owner;
	unsigned char data[];
};

static struct block *queue[QCAP];
static int qlen;
static pthread_mutex_t qmu = PTHREAD_MUTEX_INITIALIZER;
static long corrupt, cross_frees, calloc_dirty, allocs;

static uint32_t next_rand(uint32_t *rng)
{
	*rng = *rng * 1103515245u + 12345u;
	return *rng >> 4;
}

static unsigned char pat(const struct block *b, size_t i)
{
	return (unsigned char)(b->seed + i * 7 + (i >> 8));
}

static void fill(struct block *b, size_t from)
{
	for (size_t i = from; i < b->size; i++)
		b->data[i] = pat(b, i);
}

static int intact(const struct block *b, size_t upto)
{
	for (size_t i = 0; i < upto; i++)
		if (b->data[i] != pat(b, i))
			return 0;
	return 1;
}

static struct block *make(uint32_t *rng, int owner)
{
	uint32_t r = next_rand(rng);
	size_t size;
	if (r % 512 == 0)
		size = 128 * 1024 + r % (256 * 1024); /* mmap-sized */
	else if (r % 8 == 0)
		size = 4096 + r % 28672;
	else
		size = 1 + r % 1024;
	struct block *b;
	if (r % 4 == 1) {
		b = calloc(1, sizeof *b + size);
		if (b) {
			for (size_t i = 0; i < size; i++)
				if (b->data[i] != 0) {
					__atomic_add_fetch(&calloc_dirty, 1, __ATOMIC_RELAXED);
					break;
				}
		}
	} else {
		b = malloc(sizeof *b + size);
	}
	if (!b) {
		fprintf(stderr, "allocation of %zu bytes failed\n", size);
		exit(1);
	}
	b->size = size;
	b->seed = next_rand(rng);
	b->owner = owner;
	fill(b, 0);
	__atomic_add_fetch(&allocs, 1, __ATOMIC_RELAXED);
	return b;
}

static void check_free(struct block *b, int self)
{
	if (!intact(b, b->size))
		__atomic_add_fetch(&corrupt, 1, __ATOMIC_RELAXED);
	if (b->owner != self)
		__atomic_add_fetch(&cross_frees, 1, __ATOMIC_RELAXED);
	free(b);
}

/* Grow or shrink; the common prefix must survive the move. */
static struct block *resize(struct block *b, uint32_t *rng)
{
	size_t old = b->size;
	size_t size = next_rand(rng) % 2 ? old * 2 + 100 : old / 3 + 1;
	struct block *n = realloc(b, sizeof *n + size);
	if (!n) {
		fprintf(stderr, "realloc to %zu bytes failed\n", size);
		exit(1);
	}
	size_t keep = old < size ? old : size;
	if (!intact(n, keep))
		__atomic_add_fetch(&corrupt, 1, __ATOMIC_RELAXED);
	n->size = size;
	fill(n, keep);
	return n;
}

static void *worker(void *arg)
{
	int self = (int)(intptr_t)arg;
	uint32_t rng = (uint32_t)(self + 1) * 2654435761u;
	struct block *mine[SLOTS] = { 0 };
	for (int op = 0; op < OPS; op++) {
		int slot = (int)(next_rand(&rng) % SLOTS);
		if (mine[slot]) {
			uint32_t what = next_rand(&rng) % 8;
			if (what < 3) { /* give it away */
				pthread_mutex_lock(&qmu);
				if (qlen < QCAP) {
					queue[qlen++] = mine[slot];
					mine[slot] = NULL;
				}
				pthread_mutex_unlock(&qmu);
			} else if (what == 3) {
				mine[slot] = resize(mine[slot], &rng);
				continue;
			}
			if (mine[slot]) {
				check_free(mine[slot], self);
				mine[slot] = NULL;
			}
		}
		mine[slot] = make(&rng, self);
		if (op % 4 == 0) { /* take one someone gave away */
			struct block *b = NULL;
			pthread_mutex_lock(&qmu);
			if (qlen > 0)
				b = queue[--qlen];
			pthread_mutex_unlock(&qmu);
			if (b)
				check_free(b, self);
		}
		if (op % 64 == 0)
			sched_yield();
	}
	for (int i = 0; i < SLOTS; i++)
		if (mine[i])
			check_free(mine[i], self);
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (intptr_t i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	while (qlen > 0)
		check_free(queue[--qlen], -1);
	CHECK(allocs > (long)NTHREADS * OPS / 2, "most operations allocated a block");
	CHECK(corrupt == 0, "no block's pattern damaged (malloc, realloc, free)");
	CHECK(calloc_dirty == 0, "calloc memory zeroed");
	CHECK(cross_frees > 1000, "blocks freed by threads other than their allocator");
	printf("%d threads x %d operations\n", NTHREADS, OPS);
	return failures != 0;
}
