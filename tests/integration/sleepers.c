/* 10,000 threads sleep at once and all wake up; under the shim they are
 * carried by a handful of kernel threads. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define NTHREADS 10000

static int asleep, woke;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *sleeper(void *arg)
{
	pthread_mutex_lock(&mu);
	if (++asleep == NTHREADS)
		pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	struct timespec ts = { 0, 200000000 + (long)arg % 1000 * 1000 };
	nanosleep(&ts, NULL);
	__atomic_add_fetch(&woke, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	pthread_t *t = calloc(NTHREADS, sizeof *t);
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], &a, sleeper, (void *)i) != 0) {
			fprintf(stderr, "pthread_create %ld failed\n", i);
			return 1;
		}
	pthread_mutex_lock(&mu);
	while (asleep < NTHREADS)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	int n = kernel_threads();
	CHECK(threads_are_gs(n, 1), "10000 sleepers: Gs on a few kernel threads under the shim");
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("%d threads slept at once and all %d woke\n", NTHREADS, woke);
	return woke != NTHREADS || failures;
}
