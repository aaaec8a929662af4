/* Semaphore torture.
 * 1. A pool of PERMITS: threads take a permit with sem_wait, sem_trywait,
 *    sem_timedwait (CLOCK_REALTIME) or sem_clockwait (CLOCK_MONOTONIC)
 *    with random timeouts, hold it briefly and give it back.  Never more
 *    than PERMITS holders; every attempt accounted for; the value is
 *    PERMITS again at the end.
 * 2. Producers post exactly N, consumers wait (untimed and timed, retrying
 *    on timeout) for exactly N: a lost post hangs or miscounts it. */
#define _GNU_SOURCE
#include <errno.h>
#include <semaphore.h>
#include <stdio.h>

#include "torture.h"

#define THREADS 8
#define ITERS 8000
#define PERMITS 3

static sem_t pool;
static int holders;
static long got, timeouts, eagain, over, bad_errors;

static void *pool_user(void *arg)
{
	uint32_t seed = 0x2545f491u * (uint32_t)((long)arg + 1);
	for (int i = 0; i < ITERS; i++) {
		int r;
		switch (rnd(&seed) % 4) {
		case 0:
			r = sem_wait(&pool);
			break;
		case 1:
			r = sem_trywait(&pool);
			break;
		case 2: {
			struct timespec ts = rnd_deadline(&seed, CLOCK_REALTIME, 200);
			r = sem_timedwait(&pool, &ts);
			break;
		}
		default: {
			struct timespec ts = rnd_deadline(&seed, CLOCK_MONOTONIC, 200);
			r = sem_clockwait(&pool, CLOCK_MONOTONIC, &ts);
			break;
		}
		}
		if (r != 0) {
			if (errno == ETIMEDOUT)
				atomic_inc(&timeouts);
			else if (errno == EAGAIN)
				atomic_inc(&eagain);
			else
				atomic_inc(&bad_errors);
			continue;
		}
		if (__atomic_add_fetch(&holders, 1, __ATOMIC_SEQ_CST) > PERMITS)
			atomic_inc(&over);
		if (rnd(&seed) % 32 == 0) {
			struct timespec ts = { 0, 50000 };
			nanosleep(&ts, NULL);
		}
		atomic_inc(&got);
		__atomic_sub_fetch(&holders, 1, __ATOMIC_SEQ_CST);
		if (sem_post(&pool) != 0)
			atomic_inc(&bad_errors);
	}
	return NULL;
}

#define PRODUCERS 4
#define CONSUMERS 4
#define POSTS 10000 /* per producer */

static sem_t items;
static long taken, producer_posts;

static void *post_or_take(void *arg)
{
	long id = (long)arg;
	uint32_t seed = 0x3c6ef372u * (uint32_t)(id + 1);
	if (id < PRODUCERS) {
		for (int i = 0; i < POSTS; i++) {
			if (sem_post(&items) == 0)
				atomic_inc(&producer_posts);
			if (rnd(&seed) % 64 == 0)
				sched_yield();
		}
		return NULL;
	}
	for (int i = 0; i < PRODUCERS * POSTS / CONSUMERS; i++) {
		if (rnd(&seed) % 2) {
			while (sem_wait(&items) != 0)
				;
		} else {
			for (;;) {
				struct timespec ts = rnd_deadline(&seed, CLOCK_REALTIME, 100);
				if (sem_timedwait(&items, &ts) == 0)
					break;
				if (errno != ETIMEDOUT)
					atomic_inc(&bad_errors);
			}
		}
		atomic_inc(&taken);
	}
	return NULL;
}

int main(void)
{
	sem_init(&pool, 0, PERMITS);
	run_threads(THREADS, pool_user);
	int v = -1;
	sem_getvalue(&pool, &v);
	CHECK(got + timeouts + eagain == THREADS * ITERS, "pool: every attempt accounted for");
	CHECK(over == 0, "pool: never more holders than permits");
	CHECK(bad_errors == 0, "pool: only ETIMEDOUT and EAGAIN as errors");
	CHECK(v == PERMITS, "pool: every permit back at the end");
	CHECK(sem_destroy(&pool) == 0, "pool: destroyed");

	sem_init(&items, 0, 0);
	run_threads(PRODUCERS + CONSUMERS, post_or_take);
	sem_getvalue(&items, &v);
	CHECK(producer_posts == PRODUCERS * POSTS && taken == PRODUCERS * POSTS,
	      "items: every post taken exactly once");
	CHECK(v == 0 && bad_errors == 0, "items: value 0 at the end, no unexpected error");
	return failures != 0;
}
