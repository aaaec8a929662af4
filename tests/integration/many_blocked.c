#define _GNU_SOURCE
/* 1,000 threads blocked at once (on a condvar, a mutex held by main, and a
 * semaphore) while the process has only a handful of kernel threads under
 * the shim; then all are released and joined. */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define NTHREADS 1000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t sem;
static int go, arrived, finished;

static void *worker(void *arg)
{
	long kind = (long)arg % 3;
	pthread_mutex_lock(&mu);
	arrived++;
	pthread_cond_broadcast(&cv);
	if (kind == 0)
		while (!go)
			pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	if (kind == 1) {
		pthread_mutex_lock(&held);
		pthread_mutex_unlock(&held);
	} else if (kind == 2) {
		sem_wait(&sem);
	}
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int maxprocs(void)
{
	const char *s = getenv("GMP_MAXPROCS");
	if (s)
		return atoi(s);
	cpu_set_t set;
	sched_getaffinity(0, sizeof set, &set);
	return CPU_COUNT(&set);
}

int main(void)
{
	sem_init(&sem, 0, 0);
	pthread_mutex_lock(&held);
	pthread_t *t = calloc(NTHREADS, sizeof *t);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	pthread_mutex_lock(&mu);
	while (arrived < NTHREADS)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);

	int n = kernel_threads();
	const char *mode = getenv("GMP_TEST_MODE");
	if (under_shim() && n > maxprocs() + 8) {
		fprintf(stderr, "%d kernel threads with %d threads blocked (GOMAXPROCS %d)\n", n, NTHREADS,
			maxprocs());
		return 1;
	}
	if (mode && strcmp(mode, "native") == 0 && n < NTHREADS) {
		fprintf(stderr, "native run shows only %d kernel threads\n", n);
		return 1;
	}
	printf("%d threads blocked at once; kernel thread bound holds\n", NTHREADS);

	pthread_mutex_lock(&mu);
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_mutex_unlock(&held);
	for (int i = 0; i < NTHREADS; i++)
		sem_post(&sem);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("released and joined: %d\n", finished);
	free(t);
	return finished != NTHREADS;
}
