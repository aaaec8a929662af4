/* Threads allocate, fill, check and free blocks of random sizes, and hand
 * blocks to each other through a mutex-protected queue so that memory is
 * freed by a thread other than the one that allocated it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 16
#define OPS 20000
#define QCAP 256

struct block {
	size_t size;
	uint32_t seed;
	unsigned char data[];
};

static struct block *queue[QCAP];
static int qlen;
static pthread_mutex_t qmu = PTHREAD_MUTEX_INITIALIZER;
static long corrupt, handed;

static struct block *make(uint32_t *rng)
{
	*rng = *rng * 1103515245 + 12345;
	size_t size = 1 + (*rng >> 8) % 4096;
	struct block *b = malloc(sizeof *b + size);
	b->size = size;
	b->seed = *rng;
	for (size_t i = 0; i < size; i++)
		b->data[i] = (unsigned char)(b->seed + i);
	return b;
}

static void check_free(struct block *b)
{
	for (size_t i = 0; i < b->size; i++)
		if (b->data[i] != (unsigned char)(b->seed + i)) {
			__atomic_add_fetch(&corrupt, 1, __ATOMIC_RELAXED);
			break;
		}
	free(b);
}

static void *worker(void *arg)
{
	uint32_t rng = (uint32_t)(uintptr_t)arg * 2654435761u;
	struct block *mine[32] = { 0 };
	for (int op = 0; op < OPS; op++) {
		int slot = op % 32;
		if (mine[slot]) {
			if (op % 3 == 0) {
				pthread_mutex_lock(&qmu);
				if (qlen < QCAP) {
					queue[qlen++] = mine[slot];
					mine[slot] = NULL;
				}
				pthread_mutex_unlock(&qmu);
			}
			if (mine[slot]) {
				check_free(mine[slot]);
				mine[slot] = NULL;
			}
		}
		mine[slot] = make(&rng);
		if (op % 5 == 0) {
			struct block *b = NULL;
			pthread_mutex_lock(&qmu);
			if (qlen > 0)
				b = queue[--qlen];
			pthread_mutex_unlock(&qmu);
			if (b) {
				check_free(b);
				__atomic_add_fetch(&handed, 1, __ATOMIC_RELAXED);
			}
		}
		if (op % 97 == 0) {
			struct block *r = mine[slot];
			struct block *n = realloc(r, sizeof *r + r->size * 2);
			for (size_t i = n->size; i < n->size * 2; i++)
				n->data[i] = (unsigned char)(n->seed + i);
			n->size *= 2;
			mine[slot] = n;
		}
	}
	for (int i = 0; i < 32; i++)
		if (mine[i])
			check_free(mine[i]);
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	while (qlen > 0)
		check_free(queue[--qlen]);
	printf("%d threads x %d allocations, freed across threads: %s, corrupt blocks: %ld\n", NTHREADS, OPS,
	       handed > 0 ? "yes" : "no", corrupt);
	return corrupt != 0 || handed == 0;
}
