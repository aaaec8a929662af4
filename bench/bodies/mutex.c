#include <pthread.h>

#include "bodies.h"

#define NTHREADS 4

struct shared {
	pthread_mutex_t mu;
	long counter;
	long per_thread;
};

static void *hammer(void *arg)
{
	struct shared *s = arg;
	for (long i = 0; i < s->per_thread; i++) {
		pthread_mutex_lock(&s->mu);
		s->counter++;
		pthread_mutex_unlock(&s->mu);
	}
	return NULL;
}

/* 4 threads increment one counter under one mutex; iters increments. */
void bench_mutex_contended(long iters)
{
	struct shared s = { PTHREAD_MUTEX_INITIALIZER, 0, iters / NTHREADS + 1 };
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, hammer, &s);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
}
