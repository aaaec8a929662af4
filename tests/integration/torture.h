/* Shared by the torture programs: many threads hammer one primitive with
 * random choices and random short timeouts; every outcome is counted and
 * only totals that must be exact are printed (run-both compares them).
 * Threads stop on their own (fixed iteration counts) or through a kill
 * switch: a flag set under the primitive's lock plus a broadcast, never
 * cancellation. */
#ifndef GMP_TEST_TORTURE_H
#define GMP_TEST_TORTURE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "check.h"

/* xorshift32, one state per thread: the choices differ from run to run
 * only through scheduling, and the printed totals do not depend on them. */
static inline uint32_t rnd(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* A timeout of 0 to max_us microseconds from now on clk. */
static inline struct timespec rnd_deadline(uint32_t *s, clockid_t clk, unsigned max_us)
{
	return deadline_in(clk, (long)(rnd(s) % (max_us + 1)) * 1000L);
}

/* Starts n threads running fn(index) and joins them all. */
static inline void run_threads(int n, void *(*fn)(void *))
{
	pthread_t t[64];
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)i) != 0) {
			printf("pthread_create failed\n");
			exit(1);
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static inline long atomic_inc(long *p)
{
	return __atomic_add_fetch(p, 1, __ATOMIC_RELAXED);
}

static inline long atomic_get(long *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

#endif
