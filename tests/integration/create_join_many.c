/* 10,000 threads created and joined: one batch of 1,000 that are all alive
 * at once (each waits at a gate until the whole batch exists), then batches
 * of 100; each returns a value derived from its argument and the values
 * are summed.  Then 1,000 detached threads report through a mutex+condvar
 * counter. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

#define TOTAL 10000
#define BIG 1000
#define SMALL 100
#define DETACHED 1000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int gate_open, alive, max_alive;
static int detached_done;
static unsigned long detached_mask[DETACHED / 64 + 1];

static uint64_t f(uint64_t v)
{
	return v * v * 3 + v;
}

static void *compute(void *arg)
{
	return (void *)(uintptr_t)f((uintptr_t)arg);
}

/* Counts itself alive and waits until main opens the gate. */
static void *gated(void *arg)
{
	pthread_mutex_lock(&mu);
	if (++alive > max_alive)
		max_alive = alive;
	pthread_cond_broadcast(&cv);
	while (!gate_open)
		pthread_cond_wait(&cv, &mu);
	alive--;
	pthread_mutex_unlock(&mu);
	return compute(arg);
}

static void *detached(void *arg)
{
	uintptr_t i = (uintptr_t)arg;
	pthread_mutex_lock(&mu);
	detached_mask[i / 64] |= 1UL << (i % 64);
	detached_done++;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void create_or_die(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), uintptr_t arg)
{
	int e = pthread_create(t, a, fn, (void *)arg);
	if (e != 0) {
		fprintf(stderr, "pthread_create failed for thread %lu: %s\n", (unsigned long)arg, strerror(e));
		exit(1);
	}
}

static uint64_t join_all(pthread_t *t, int n)
{
	uint64_t sum = 0;
	for (int i = 0; i < n; i++) {
		void *r;
		int e = pthread_join(t[i], &r);
		if (e != 0) {
			fprintf(stderr, "pthread_join failed: %s\n", strerror(e));
			exit(1);
		}
		sum += (uintptr_t)r;
	}
	return sum;
}

int main(void)
{
	pthread_t *t = calloc(BIG, sizeof *t);
	uint64_t sum = 0;
	uintptr_t next = 0;

	/* 1,000 alive at once. */
	for (int i = 0; i < BIG; i++)
		create_or_die(&t[i], NULL, gated, next++);
	pthread_mutex_lock(&mu);
	while (alive < BIG)
		pthread_cond_wait(&cv, &mu);
	gate_open = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	sum += join_all(t, BIG);
	CHECK(max_alive == BIG, "1,000 threads alive at the same time");

	/* The rest in batches of 100. */
	while (next < TOTAL) {
		for (int i = 0; i < SMALL; i++)
			create_or_die(&t[i], NULL, compute, next++);
		sum += join_all(t, SMALL);
	}
	uint64_t want = 0;
	for (uint64_t v = 0; v < TOTAL; v++)
		want += f(v);
	CHECK(sum == want, "10,000 joined threads: sum of return values exact");

	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (uintptr_t i = 0; i < DETACHED; i++) {
		pthread_t d;
		create_or_die(&d, &attr, detached, i);
	}
	pthread_attr_destroy(&attr);
	pthread_mutex_lock(&mu);
	while (detached_done < DETACHED)
		pthread_cond_wait(&cv, &mu);
	int each_once = 1;
	for (int i = 0; i < DETACHED; i++)
		each_once &= (detached_mask[i / 64] >> (i % 64)) & 1;
	pthread_mutex_unlock(&mu);
	CHECK(detached_done == DETACHED && each_once, "1,000 detached threads each reported once");

	free(t);
	printf("%d threads joined, %d detached\n", TOTAL, DETACHED);
	return failures != 0;
}
