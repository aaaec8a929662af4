#include <pthread.h>

#include "bodies.h"

static void *nothing(void *arg)
{
	return arg;
}

/* One thread at a time: create it, wait for it. */
void bench_create_join(long iters)
{
	for (long i = 0; i < iters; i++) {
		pthread_t t;
		pthread_create(&t, NULL, nothing, NULL);
		pthread_join(t, NULL);
	}
}
