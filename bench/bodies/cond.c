#include <pthread.h>

#include "bodies.h"

struct pingpong {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int turn;
	long rounds;
};

static void *pong(void *arg)
{
	struct pingpong *pp = arg;
	pthread_mutex_lock(&pp->mu);
	for (long i = 0; i < pp->rounds; i++) {
		while (pp->turn != 1)
			pthread_cond_wait(&pp->cv, &pp->mu);
		pp->turn = 0;
		pthread_cond_signal(&pp->cv);
	}
	pthread_mutex_unlock(&pp->mu);
	return NULL;
}

/* One op = one round trip: main hands the turn over and waits for it back. */
void bench_cond_pingpong(long iters)
{
	struct pingpong pp = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, iters };
	pthread_t t;
	pthread_create(&t, NULL, pong, &pp);
	pthread_mutex_lock(&pp.mu);
	for (long i = 0; i < iters; i++) {
		pp.turn = 1;
		pthread_cond_signal(&pp.cv);
		while (pp.turn != 0)
			pthread_cond_wait(&pp.cv, &pp.mu);
	}
	pthread_mutex_unlock(&pp.mu);
	pthread_join(t, NULL);
}
