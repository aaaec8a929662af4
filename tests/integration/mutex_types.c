/* Mutex types (normal, recursive, errorcheck, adaptive), the static
 * initializers, zeroed mutexes and condvars used without init, the error
 * codes NPTL returns, contended counters, timed locks and waits, and
 * condvar signal/broadcast with predicate loops. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define WORKERS 8
#define INCREMENTS 100000

static pthread_mutex_t m_static = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m_rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t m_err = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
static pthread_mutex_t m_zero; /* static zeroed memory, never initialised */
static pthread_cond_t c_zero;

static int64_t ns_between(struct timespec a, struct timespec b)
{
	return (int64_t)(b.tv_sec - a.tv_sec) * 1000000000 + (b.tv_nsec - a.tv_nsec);
}

/* ---- contended counters ---- */

static long counter;
static pthread_mutex_t *counted;
static int lock_errors;

static void *increment(void *arg)
{
	for (int i = 0; i < INCREMENTS; i++) {
		if (pthread_mutex_lock(counted) != 0)
			__atomic_add_fetch(&lock_errors, 1, __ATOMIC_RELAXED);
		long c = counter;
		if (i % 1000 == 0)
			sched_yield(); /* sometimes switch while holding it */
		counter = c + 1;
		if (pthread_mutex_unlock(counted) != 0)
			__atomic_add_fetch(&lock_errors, 1, __ATOMIC_RELAXED);
	}
	return arg;
}

static int contended_exact(pthread_mutex_t *m)
{
	counter = 0;
	lock_errors = 0;
	counted = m;
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, increment, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	if (counter != (long)WORKERS * INCREMENTS || lock_errors)
		fprintf(stderr, "counter %ld, %d lock/unlock errors\n", counter, lock_errors);
	return counter == (long)WORKERS * INCREMENTS && lock_errors == 0;
}

/* ---- helpers run by another thread ---- */

static void *unlock_it(void *m)
{
	return (void *)(intptr_t)pthread_mutex_unlock(m);
}

static void *trylock_it(void *m)
{
	int e = pthread_mutex_trylock(m);
	if (e == 0)
		pthread_mutex_unlock(m);
	return (void *)(intptr_t)e;
}

static void *timedlock_it(void *m)
{
	struct timespec t0, t1, dl = deadline_in(CLOCK_REALTIME, 20 * 1000 * 1000);
	clock_gettime(CLOCK_REALTIME, &t0);
	int e = pthread_mutex_timedlock(m, &dl);
	clock_gettime(CLOCK_REALTIME, &t1);
	if (e == 0)
		pthread_mutex_unlock(m);
	if (e == ETIMEDOUT && ns_between(t0, t1) < 19 * 1000 * 1000)
		e = -1; /* timed out early */
	return (void *)(intptr_t)e;
}

static int in_other_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, fn, arg);
	pthread_join(t, &r);
	return (int)(intptr_t)r;
}

/* ---- condvars ---- */

struct pingpong {
	pthread_mutex_t *m;
	pthread_cond_t *c;
	int turn, rounds;
};

static void *pong(void *arg)
{
	struct pingpong *p = arg;
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(p->m);
		while (p->turn != 1)
			pthread_cond_wait(p->c, p->m);
		p->turn = 0;
		p->rounds++;
		pthread_cond_signal(p->c);
		pthread_mutex_unlock(p->m);
	}
	return NULL;
}

static int ping_pong(pthread_mutex_t *m, pthread_cond_t *c)
{
	struct pingpong p = { m, c, 0, 0 };
	pthread_t t;
	pthread_create(&t, NULL, pong, &p);
	for (int i = 0; i < 10000; i++) {
		pthread_mutex_lock(m);
		p.turn = 1;
		pthread_cond_signal(c);
		while (p.turn != 0)
			pthread_cond_wait(c, m);
		pthread_mutex_unlock(m);
	}
	pthread_join(t, NULL);
	return p.rounds;
}

#define BWAITERS 16
#define GENERATIONS 500
static pthread_mutex_t bmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t b_go = PTHREAD_COND_INITIALIZER, b_ack = PTHREAD_COND_INITIALIZER;
static int generation, acks, b_seen[BWAITERS];

static void *broadcast_waiter(void *arg)
{
	int id = (int)(intptr_t)arg;
	int seen = 0;
	pthread_mutex_lock(&bmu);
	while (seen < GENERATIONS) {
		while (generation == seen)
			pthread_cond_wait(&b_go, &bmu);
		seen = generation;
		b_seen[id]++;
		if (++acks == BWAITERS)
			pthread_cond_signal(&b_ack);
	}
	pthread_mutex_unlock(&bmu);
	return NULL;
}

#define SWAITERS 12
#define TOKENS 3000
static pthread_mutex_t smu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t s_cv = PTHREAD_COND_INITIALIZER;
static int tokens, consumed, closed;

static void *token_waiter(void *arg)
{
	(void)arg;
	int mine = 0;
	pthread_mutex_lock(&smu);
	for (;;) {
		while (tokens == 0 && !closed)
			pthread_cond_wait(&s_cv, &smu);
		if (tokens == 0)
			break;
		tokens--;
		consumed++;
		mine++;
	}
	pthread_mutex_unlock(&smu);
	return (void *)(intptr_t)mine;
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m_adapt, m_norm, m_errd, m_recd;
	int type = -1;
	pthread_mutexattr_init(&a);
	CHECK(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP) == 0 && pthread_mutexattr_gettype(&a, &type) == 0 &&
		      type == PTHREAD_MUTEX_ADAPTIVE_NP,
	      "mutexattr type round trip (adaptive)");
	pthread_mutex_init(&m_adapt, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_NORMAL);
	pthread_mutex_init(&m_norm, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m_errd, &a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&m_recd, &a);
	CHECK(pthread_mutexattr_settype(&a, 999) == EINVAL, "mutexattr bad type: EINVAL");
	pthread_mutexattr_destroy(&a);

	/* A mutex and a condvar in zeroed heap memory, never initialised. */
	pthread_mutex_t *m_heap = malloc(sizeof *m_heap);
	pthread_cond_t *c_heap = malloc(sizeof *c_heap);
	memset(m_heap, 0, sizeof *m_heap);
	memset(c_heap, 0, sizeof *c_heap);

	CHECK(contended_exact(&m_static), "PTHREAD_MUTEX_INITIALIZER: 8 x 100,000 increments exact");
	CHECK(contended_exact(&m_norm), "normal mutex: exact");
	CHECK(contended_exact(&m_adapt), "adaptive mutex: exact");
	CHECK(contended_exact(&m_rec), "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP: exact");
	CHECK(contended_exact(&m_err), "PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP: exact");
	CHECK(contended_exact(&m_zero), "static zeroed mutex: exact");
	CHECK(contended_exact(m_heap), "memset-0 heap mutex: exact");

	/* normal */
	CHECK(pthread_mutex_trylock(&m_norm) == 0, "normal: trylock a free mutex");
	CHECK(pthread_mutex_trylock(&m_norm) == EBUSY, "normal: trylock while held: EBUSY");
	CHECK(in_other_thread(trylock_it, &m_norm) == EBUSY, "normal: trylock from another thread: EBUSY");
	CHECK(in_other_thread(timedlock_it, &m_norm) == ETIMEDOUT, "normal: timedlock 20 ms from another thread: ETIMEDOUT");
	CHECK(pthread_mutex_destroy(&m_norm) == EBUSY, "normal: destroy while locked: EBUSY");
	pthread_mutex_unlock(&m_norm);
	CHECK(in_other_thread(timedlock_it, &m_norm) == 0, "normal: timedlock of a free mutex: 0");
	CHECK(pthread_mutex_destroy(&m_norm) == 0, "normal: destroy when unlocked");

	/* adaptive */
	pthread_mutex_lock(&m_adapt);
	CHECK(pthread_mutex_trylock(&m_adapt) == EBUSY && in_other_thread(trylock_it, &m_adapt) == EBUSY,
	      "adaptive: trylock while held: EBUSY");
	pthread_mutex_unlock(&m_adapt);
	CHECK(in_other_thread(trylock_it, &m_adapt) == 0, "adaptive: trylock after unlock: 0");

	/* recursive */
	pthread_mutex_t *recs[2] = { &m_rec, &m_recd };
	const char *rec_names[2] = { "recursive (static _NP)", "recursive (attr)" };
	for (int k = 0; k < 2; k++) {
		char what[96];
		pthread_mutex_t *m = recs[k];
		int ok = 1;
		for (int i = 0; i < 10; i++)
			ok &= pthread_mutex_lock(m) == 0;
		snprintf(what, sizeof what, "%s: lock depth 10", rec_names[k]);
		CHECK(ok, what);
		snprintf(what, sizeof what, "%s: another thread's trylock: EBUSY", rec_names[k]);
		CHECK(in_other_thread(trylock_it, m) == EBUSY, what);
		snprintf(what, sizeof what, "%s: unlock by another thread: EPERM", rec_names[k]);
		CHECK(in_other_thread(unlock_it, m) == EPERM, what);
		snprintf(what, sizeof what, "%s: destroy while locked: EBUSY", rec_names[k]);
		CHECK(pthread_mutex_destroy(m) == EBUSY, what);
		ok = 1;
		for (int i = 0; i < 9; i++)
			ok &= pthread_mutex_unlock(m) == 0;
		snprintf(what, sizeof what, "%s: still held after 9 unlocks", rec_names[k]);
		CHECK(ok && in_other_thread(trylock_it, m) == EBUSY, what);
		snprintf(what, sizeof what, "%s: free after the 10th unlock", rec_names[k]);
		CHECK(pthread_mutex_unlock(m) == 0 && in_other_thread(trylock_it, m) == 0, what);
		snprintf(what, sizeof what, "%s: unlock when unlocked: EPERM", rec_names[k]);
		CHECK(pthread_mutex_unlock(m) == EPERM, what);
	}

	/* errorcheck */
	pthread_mutex_t *errs[2] = { &m_err, &m_errd };
	const char *err_names[2] = { "errorcheck (static _NP)", "errorcheck (attr)" };
	for (int k = 0; k < 2; k++) {
		char what[96];
		pthread_mutex_t *m = errs[k];
		snprintf(what, sizeof what, "%s: relock by the owner: EDEADLK", err_names[k]);
		CHECK(pthread_mutex_lock(m) == 0 && pthread_mutex_lock(m) == EDEADLK, what);
		snprintf(what, sizeof what, "%s: trylock by the owner: EBUSY", err_names[k]);
		CHECK(pthread_mutex_trylock(m) == EBUSY, what);
		snprintf(what, sizeof what, "%s: unlock by another thread: EPERM", err_names[k]);
		CHECK(in_other_thread(unlock_it, m) == EPERM, what);
		snprintf(what, sizeof what, "%s: still held by the owner", err_names[k]);
		CHECK(in_other_thread(trylock_it, m) == EBUSY, what);
		snprintf(what, sizeof what, "%s: unlock, then unlock again: EPERM", err_names[k]);
		CHECK(pthread_mutex_unlock(m) == 0 && pthread_mutex_unlock(m) == EPERM, what);
	}

	/* condvars */
	CHECK(ping_pong(&m_zero, &c_zero) == 10000, "static zeroed mutex+condvar: 10,000 ping-pong rounds");
	CHECK(ping_pong(m_heap, c_heap) == 10000, "memset-0 heap mutex+condvar: 10,000 ping-pong rounds");

	pthread_t bw[BWAITERS];
	for (intptr_t i = 0; i < BWAITERS; i++)
		pthread_create(&bw[i], NULL, broadcast_waiter, (void *)i);
	pthread_mutex_lock(&bmu);
	for (int g = 1; g <= GENERATIONS; g++) {
		acks = 0;
		generation = g;
		pthread_cond_broadcast(&b_go);
		while (acks < BWAITERS)
			pthread_cond_wait(&b_ack, &bmu);
	}
	pthread_mutex_unlock(&bmu);
	int every = 1;
	for (int i = 0; i < BWAITERS; i++) {
		pthread_join(bw[i], NULL);
		every &= b_seen[i] == GENERATIONS;
	}
	CHECK(every, "broadcast wakes all 16 waiters, 500 generations");

	pthread_t sw[SWAITERS];
	for (int i = 0; i < SWAITERS; i++)
		pthread_create(&sw[i], NULL, token_waiter, NULL);
	for (int i = 0; i < TOKENS; i++) {
		pthread_mutex_lock(&smu);
		tokens++;
		pthread_cond_signal(&s_cv);
		pthread_mutex_unlock(&smu);
		if (i % 16 == 0)
			sched_yield();
	}
	pthread_mutex_lock(&smu);
	closed = 1;
	pthread_cond_broadcast(&s_cv);
	pthread_mutex_unlock(&smu);
	long total = 0;
	for (int i = 0; i < SWAITERS; i++) {
		void *r;
		pthread_join(sw[i], &r);
		total += (intptr_t)r;
	}
	CHECK(consumed == TOKENS && total == TOKENS && tokens == 0, "signal per token: 3,000 tokens consumed once each");

	/* Timed waits. */
	pthread_cond_t cv;
	pthread_condattr_t ca;
	clockid_t clk = -1;
	pthread_condattr_init(&ca);
	CHECK(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_condattr_getclock(&ca, &clk) == 0 &&
		      clk == CLOCK_MONOTONIC,
	      "condattr clock round trip");
	pthread_cond_init(&cv, &ca);
	pthread_condattr_destroy(&ca);
	struct timespec dl = deadline_in(CLOCK_MONOTONIC, 10 * 1000 * 1000), now;
	pthread_mutex_lock(&m_static);
	int e = pthread_cond_timedwait(&cv, &m_static, &dl);
	clock_gettime(CLOCK_MONOTONIC, &now);
	CHECK(e == ETIMEDOUT && ns_between(dl, now) >= 0, "monotonic timedwait: ETIMEDOUT, not before the deadline");
	CHECK(in_other_thread(trylock_it, &m_static) == EBUSY, "the mutex is held again after the timeout");
	dl.tv_nsec = 1000000000;
	CHECK(pthread_cond_timedwait(&cv, &m_static, &dl) == EINVAL, "timedwait with tv_nsec = 1e9: EINVAL");
	struct timespec past = { 1, 0 };
	CHECK(pthread_cond_timedwait(&cv, &m_static, &past) == ETIMEDOUT, "timedwait with a past deadline: ETIMEDOUT");
	pthread_mutex_unlock(&m_static);
	CHECK(pthread_cond_destroy(&cv) == 0, "cond_destroy");

	free(m_heap);
	free(c_heap);
	printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
	return failures != 0;
}
