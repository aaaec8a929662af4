/* The program's malloc locks a pthread mutex and is called before the
 * shim's constructor runs (locking_malloc_lib.c): start-up must neither
 * deadlock nor recurse, and threads created later (and the runtime's own
 * Ms, which allocate in glibc's pthread_create) must share that malloc. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

long locking_malloc_calls(void);

#define THREADS 16
#define ROUNDS 2000

static void *churn(void *arg)
{
	uintptr_t seed = (uintptr_t)arg, sum = 0;
	for (int i = 0; i < ROUNDS; i++) {
		size_t n = 16 + (seed * 2654435761u + (uintptr_t)i) % 4096;
		unsigned char *p = malloc(n);
		memset(p, (int)(i & 0xff), n);
		sum += p[n - 1];
		free(p);
	}
	return (void *)sum;
}

int main(void)
{
	pthread_t t[THREADS];
	int created = 0;
	for (int i = 0; i < THREADS; i++)
		created += pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)i) == 0;
	uintptr_t total = 0;
	for (int i = 0; i < created; i++) {
		void *r;
		pthread_join(t[i], &r);
		total += (uintptr_t)r;
	}
	CHECK(created == THREADS, "16 threads created with a locking malloc");
	uintptr_t want = 0;
	for (int i = 0; i < ROUNDS; i++)
		want += (uintptr_t)(i & 0xff);
	CHECK(total == want * THREADS, "every thread's allocations held their contents");
	CHECK(locking_malloc_calls() >= 2L * THREADS * ROUNDS, "all allocations went through the program's malloc");
	return failures != 0;
}
