/* Condition variable torture.
 * 1. A bounded queue: producers and consumers wait with wait, timedwait
 *    (CLOCK_REALTIME) and clockwait (CLOCK_MONOTONIC) with random timeouts,
 *    and wake each other with signal or broadcast at random; the
 *    consumers stop through a kill switch (done flag + broadcast).  Every
 *    item is consumed exactly once, and a wait that returns, timed out or
 *    not, holds the (errorcheck) mutex.
 * 2. A ring of threads passing a turn with broadcast and untimed waits:
 *    a lost wake-up hangs it.
 * 3. Waits nobody signals time out, never before their deadline, on a
 *    condvar with the CLOCK_MONOTONIC attribute and on a default one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "torture.h"

#define PRODUCERS 4
#define CONSUMERS 4
#define ITEMS 6000 /* per producer */
#define CAP 8

static pthread_mutex_t mu;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static int queue[CAP], qhead, qlen;
static int done;
static unsigned char seen[PRODUCERS * ITEMS];
static long consumed, dup_items, bad_items, not_owner, bad_errors;
static long long sum;

/* One wait of a random kind; returns with mu held (checked by the caller). */
static void rnd_wait(pthread_cond_t *c, uint32_t *seed)
{
	int r;
	switch (rnd(seed) % 3) {
	case 0:
		r = pthread_cond_wait(c, &mu);
		break;
	case 1: {
		struct timespec ts = rnd_deadline(seed, CLOCK_REALTIME, 300);
		r = pthread_cond_timedwait(c, &mu, &ts);
		break;
	}
	default: {
		struct timespec ts = rnd_deadline(seed, CLOCK_MONOTONIC, 300);
		r = pthread_cond_clockwait(c, &mu, CLOCK_MONOTONIC, &ts);
		break;
	}
	}
	if (r != 0 && r != ETIMEDOUT)
		atomic_inc(&bad_errors);
}

static void wake(pthread_cond_t *c, uint32_t *seed)
{
	if (rnd(seed) % 4 == 0)
		pthread_cond_broadcast(c);
	else
		pthread_cond_signal(c);
}

static void unlock_checked(void)
{
	/* errorcheck: EPERM if a wait returned without the mutex. */
	if (pthread_mutex_unlock(&mu) != 0)
		atomic_inc(&not_owner);
}

static void *producer(void *arg)
{
	long id = (long)arg;
	uint32_t seed = 0x1234567u * (uint32_t)(id + 1);
	for (int i = 0; i < ITEMS; i++) {
		pthread_mutex_lock(&mu);
		while (qlen == CAP)
			rnd_wait(&not_full, &seed);
		queue[(qhead + qlen) % CAP] = (int)(id * ITEMS + i);
		qlen++;
		wake(&not_empty, &seed);
		unlock_checked();
	}
	return NULL;
}

static void *consumer(void *arg)
{
	uint32_t seed = 0x7654321u * (uint32_t)((long)arg + 1);
	for (;;) {
		pthread_mutex_lock(&mu);
		while (qlen == 0 && !done)
			rnd_wait(&not_empty, &seed);
		if (qlen == 0) {
			unlock_checked();
			return NULL;
		}
		int item = queue[qhead];
		qhead = (qhead + 1) % CAP;
		qlen--;
		if (item < 0 || item >= PRODUCERS * ITEMS)
			bad_items++;
		else if (seen[item]++)
			dup_items++;
		consumed++;
		sum += item;
		wake(&not_full, &seed);
		unlock_checked();
	}
}

static void queue_test(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&mu, &a);
	pthread_t p[PRODUCERS], c[CONSUMERS];
	for (long i = 0; i < CONSUMERS; i++)
		pthread_create(&c[i], NULL, consumer, (void *)i);
	for (long i = 0; i < PRODUCERS; i++)
		pthread_create(&p[i], NULL, producer, (void *)i);
	for (int i = 0; i < PRODUCERS; i++)
		pthread_join(p[i], NULL);
	/* The kill switch: consumers drain the queue, then see done. */
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < CONSUMERS; i++)
		pthread_join(c[i], NULL);
	long long n = (long long)PRODUCERS * ITEMS;
	CHECK(consumed == n, "queue: every item consumed");
	CHECK(dup_items == 0 && bad_items == 0, "queue: no item consumed twice or invented");
	CHECK(sum == n * (n - 1) / 2, "queue: sum of the items exact");
	CHECK(not_owner == 0, "queue: every wait returned holding the mutex");
	CHECK(bad_errors == 0, "queue: waits returned only 0 or ETIMEDOUT");
	CHECK(pthread_cond_destroy(&not_empty) == 0 && pthread_cond_destroy(&not_full) == 0,
	      "queue: condvars destroyed without waiters");
}

#define RING 6
#define ROUNDS 1500

static pthread_mutex_t ring_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ring_cv = PTHREAD_COND_INITIALIZER;
static int turn;
static long passes;

static void *ring_member(void *arg)
{
	int me = (int)(long)arg;
	for (int r = 0; r < ROUNDS; r++) {
		pthread_mutex_lock(&ring_mu);
		while (turn != me)
			pthread_cond_wait(&ring_cv, &ring_mu);
		turn = (turn + 1) % RING;
		passes++;
		pthread_cond_broadcast(&ring_cv);
		pthread_mutex_unlock(&ring_mu);
	}
	return NULL;
}

#define SLEEPERS 8
#define NAPS 40

static pthread_cond_t mono_cv;
static pthread_mutex_t nap_mu = PTHREAD_MUTEX_INITIALIZER;
static long nap_timeouts, nap_early;

static long long ns_of(struct timespec ts)
{
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *napper(void *arg)
{
	uint32_t seed = 0x51ed27u * (uint32_t)((long)arg + 1);
	for (int i = 0; i < NAPS; i++) {
		int mono = i % 2;
		clockid_t clk = mono ? CLOCK_MONOTONIC : CLOCK_REALTIME;
		struct timespec dl = deadline_in(clk, 50000 + (long)(rnd(&seed) % 250) * 1000L), now;
		pthread_mutex_lock(&nap_mu);
		int r = mono ? pthread_cond_timedwait(&mono_cv, &nap_mu, &dl)
			     : pthread_cond_timedwait(&not_empty, &nap_mu, &dl);
		clock_gettime(clk, &now);
		pthread_mutex_unlock(&nap_mu);
		if (r == ETIMEDOUT)
			atomic_inc(&nap_timeouts);
		if (ns_of(now) < ns_of(dl))
			atomic_inc(&nap_early);
	}
	return NULL;
}

int main(void)
{
	queue_test();

	run_threads(RING, ring_member);
	CHECK(passes == RING * ROUNDS, "ring: every turn passed (broadcast, untimed waits)");

	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&mono_cv, &ca);
	pthread_cond_init(&not_empty, NULL);
	run_threads(SLEEPERS, napper);
	CHECK(nap_timeouts == SLEEPERS * NAPS, "naps: every unsignalled timed wait timed out");
	CHECK(nap_early == 0, "naps: none returned before its deadline");
	return failures != 0;
}
