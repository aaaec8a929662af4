#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The same while a child process the calling thread forked is alive (an
 * event loop that spawned a helper): under the shim that thread must not
 * be tied to one M, or each of its waits is a hand-off between two.  The
 * child is forked once, before the timing (a fork of this process takes
 * milliseconds), and reaped at exit. */
static int child_pipe = -1;
static pid_t child;

static void reap_child(void)
{
	close(child_pipe);
	waitpid(child, NULL, 0);
}

void bench_cond_pingpong_forked_prepare(void)
{
	if (child_pipe < 0) {
		int fd[2];
		if (pipe(fd) != 0)
			return;
		child = fork();
		if (child == 0) {
			char c;
			close(fd[1]);
			while (read(fd[0], &c, 1) < 0)
				;
			_exit(0);
		}
		close(fd[0]);
		child_pipe = fd[1];
		atexit(reap_child);
	}
}

void bench_cond_pingpong_forked(long iters)
{
	bench_cond_pingpong(iters);
}

#define BCAST_WAITERS 8

struct bcast {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	long gen, rounds;
	int acked;
};

static void *bcast_waiter(void *arg)
{
	struct bcast *b = arg;
	long seen = 0;
	pthread_mutex_lock(&b->mu);
	for (long i = 0; i < b->rounds; i++) {
		while (b->gen == seen)
			pthread_cond_wait(&b->go, &b->mu);
		seen = b->gen;
		/* Some work under the mutex, as a real waiter does with what
		 * the broadcast announced: other woken waiters find it held. */
		for (volatile int k = 0; k < 200; k++)
			;
		if (++b->acked == BCAST_WAITERS)
			pthread_cond_signal(&b->done);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

/* One op = one broadcast that releases 8 waiters, each of which must
 * relock the mutex (the thundering herd wait morphing avoids), and the
 * wait until all 8 have been through. */
void bench_cond_broadcast(long iters)
{
	struct bcast b = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, iters, 0 };
	pthread_t t[BCAST_WAITERS];
	for (int i = 0; i < BCAST_WAITERS; i++)
		pthread_create(&t[i], NULL, bcast_waiter, &b);
	pthread_mutex_lock(&b.mu);
	for (long i = 0; i < iters; i++) {
		b.acked = 0;
		b.gen++;
		pthread_cond_broadcast(&b.go);
		while (b.acked < BCAST_WAITERS)
			pthread_cond_wait(&b.done, &b.mu);
	}
	pthread_mutex_unlock(&b.mu);
	for (int i = 0; i < BCAST_WAITERS; i++)
		pthread_join(t[i], NULL);
}
