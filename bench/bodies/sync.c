#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bodies.h"

struct sems {
	sem_t ping, pong;
	long rounds;
};

static void *sem_pong(void *arg)
{
	struct sems *s = arg;
	for (long i = 0; i < s->rounds; i++) {
		sem_wait(&s->ping);
		sem_post(&s->pong);
	}
	return NULL;
}

/* One op = one round trip through two semaphores. */
void bench_sem_pingpong(long iters)
{
	struct sems s = { .rounds = iters };
	sem_init(&s.ping, 0, 0);
	sem_init(&s.pong, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, sem_pong, &s);
	for (long i = 0; i < iters; i++) {
		sem_post(&s.ping);
		sem_wait(&s.pong);
	}
	pthread_join(t, NULL);
	sem_destroy(&s.ping);
	sem_destroy(&s.pong);
}

struct futexes {
	uint32_t turn; /* 0: main's turn, 1: partner's */
	long rounds;
};

static void futex_wait(uint32_t *w, uint32_t v)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake(uint32_t *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *futex_pong(void *arg)
{
	struct futexes *f = arg;
	for (long i = 0; i < f->rounds; i++) {
		while (__atomic_load_n(&f->turn, __ATOMIC_ACQUIRE) != 1)
			futex_wait(&f->turn, 0);
		__atomic_store_n(&f->turn, 0, __ATOMIC_RELEASE);
		futex_wake(&f->turn);
	}
	return NULL;
}

/* One op = one round trip through futex(2) via syscall(). */
void bench_futex_pingpong(long iters)
{
	struct futexes f = { 0, iters };
	pthread_t t;
	pthread_create(&t, NULL, futex_pong, &f);
	for (long i = 0; i < iters; i++) {
		__atomic_store_n(&f.turn, 1, __ATOMIC_RELEASE);
		futex_wake(&f.turn);
		while (__atomic_load_n(&f.turn, __ATOMIC_ACQUIRE) != 0)
			futex_wait(&f.turn, 1);
	}
	pthread_join(t, NULL);
}

#define READERS 4

struct rw {
	pthread_rwlock_t lock;
	long value, per_thread;
};

static void *rw_worker(void *arg)
{
	struct rw *r = arg;
	long sum = 0;
	for (long i = 0; i < r->per_thread; i++) {
		if (i % 100 == 0) {
			pthread_rwlock_wrlock(&r->lock);
			r->value++;
		} else {
			pthread_rwlock_rdlock(&r->lock);
			sum += r->value;
		}
		pthread_rwlock_unlock(&r->lock);
	}
	return (void *)sum;
}

/* 4 threads, 99% reads: one op = one lock/unlock. */
void bench_rwlock_read_mostly(long iters)
{
	struct rw r = { PTHREAD_RWLOCK_INITIALIZER, 0, iters / READERS + 1 };
	pthread_t t[READERS];
	for (int i = 0; i < READERS; i++)
		pthread_create(&t[i], NULL, rw_worker, &r);
	for (int i = 0; i < READERS; i++)
		pthread_join(t[i], NULL);
}

#define PARTIES 4

struct bar {
	pthread_barrier_t b;
	long rounds;
};

static void *bar_worker(void *arg)
{
	struct bar *b = arg;
	for (long i = 0; i < b->rounds; i++)
		pthread_barrier_wait(&b->b);
	return NULL;
}

/* One op = one round of a 4-party barrier. */
void bench_barrier_round(long iters)
{
	struct bar b = { .rounds = iters };
	pthread_barrier_init(&b.b, NULL, PARTIES);
	pthread_t t[PARTIES - 1];
	for (int i = 0; i < PARTIES - 1; i++)
		pthread_create(&t[i], NULL, bar_worker, &b);
	bar_worker(&b);
	for (int i = 0; i < PARTIES - 1; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&b.b);
}

/* pthread_cond_timedwait with a deadline already past. */
void bench_timedwait_expired(long iters)
{
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
	struct timespec past = { 0, 0 };
	pthread_mutex_lock(&mu);
	for (long i = 0; i < iters; i++)
		if (pthread_cond_timedwait(&cv, &mu, &past) != ETIMEDOUT)
			abort();
	pthread_mutex_unlock(&mu);
}

static void *sleep_1ms(void *arg)
{
	struct timespec ts = { 0, 1000000 };
	nanosleep(&ts, NULL);
	return arg;
}

/* iters threads (small stacks) sleep 1 ms at once; one op = one sleeper,
 * from its creation to its join. */
void bench_sleepers(long iters)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	pthread_t *t = calloc((size_t)iters, sizeof *t);
	for (long i = 0; i < iters; i++)
		pthread_create(&t[i], &a, sleep_1ms, NULL);
	for (long i = 0; i < iters; i++)
		pthread_join(t[i], NULL);
	free(t);
	pthread_attr_destroy(&a);
}
