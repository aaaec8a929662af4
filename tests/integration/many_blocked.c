#define _GNU_SOURCE
/* 1,000 threads blocked at once (on a condvar, on a mutex held by main, and
 * on a semaphore) while, under the shim, the process has only a handful of
 * kernel threads; then all are released and joined and each must have run
 * to the end exactly once. */
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
static unsigned char ran[NTHREADS];

static void *worker(void *arg)
{
	long i = (long)arg;
	long kind = i % 3;
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
	__atomic_add_fetch(&ran[i], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	if (sem_init(&sem, 0, 0) != 0) {
		perror("sem_init");
		return 1;
	}
	pthread_mutex_lock(&held);
	pthread_t *t = calloc(NTHREADS, sizeof *t);
	for (long i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
			fprintf(stderr, "pthread_create failed at %ld\n", i);
			return 1;
		}
	pthread_mutex_lock(&mu);
	while (arrived < NTHREADS)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	/* Let the mutex and semaphore waiters get to their wait. */
	for (int i = 0; i < 100; i++)
		sched_yield();
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	nanosleep(&pause, NULL);

	int n = kernel_threads();
	if (!threads_are_gs(n, NTHREADS + 1))
		return 1;
	const char *mode = getenv("GMP_TEST_MODE");
	fprintf(stderr, "%s: %d kernel threads while %d threads are blocked\n", mode ? mode : "?", n, NTHREADS);
	CHECK(__atomic_load_n(&finished, __ATOMIC_RELAXED) == 0, "no thread got past its wait before release");
	printf("%d threads blocked at once; kernel thread bound holds\n", NTHREADS);

	pthread_mutex_lock(&mu);
	go = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_mutex_unlock(&held);
	for (int i = 0; i < NTHREADS; i++)
		if (i % 3 == 2)
			sem_post(&sem);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	int each_once = 1;
	for (int i = 0; i < NTHREADS; i++)
		each_once &= ran[i] == 1;
	CHECK(finished == NTHREADS && each_once, "all 1,000 released, joined, each ran once");
	int v;
	sem_getvalue(&sem, &v);
	CHECK(v == 0, "every semaphore post consumed by one waiter");
	free(t);
	return failures != 0;
}
