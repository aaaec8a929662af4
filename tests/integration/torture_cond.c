/* Condition variable torture.
 * 1. A bounded queue: producers and consumers wait with wait, timedwait
 *    (CLOCK_REALTIME) and clockwait (CLOCK_MONOTONIC) with random timeouts,
 *    and wake each other with signal or broadcast at random, under the
 *    mutex or after unlocking it; the
 *    consumers stop through a kill switch (done flag + broadcast).  Every
 *    item is consumed exactly once, and a wait that returns, timed out or
 *    not, holds the (errorcheck) mutex.
 * 2. A ring of threads passing a turn with broadcast (under the mutex or
 *    after it) and untimed waits: a lost wake-up hangs it.
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

/* Signal or broadcast, under the mutex or just after letting it go
 * (then another thread may hold it: the waiters move onto it under the
 * shim's wait morphing). */
static void wake_and_unlock(pthread_cond_t *c, uint32_t *seed)
{
	if (rnd(seed) % 2) {
		wake(c, seed);
		unlock_checked();
	} else {
		unlock_checked();
		wake(c, seed);
	}
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
		wake_and_unlock(&not_empty, &seed);
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
		wake_and_unlock(&not_full, &seed);
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
		if (r % 2) {
			pthread_cond_broadcast(&ring_cv);
			pthread_mutex_unlock(&ring_mu);
		} else {
			pthread_mutex_unlock(&ring_mu);
			pthread_cond_broadcast(&ring_cv);
		}
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

/* 4. The herd: waiters (on a recursive mutex, locked twice, and with
 *    long timeouts) are woken by a broadcast from a thread that does not
 *    hold the mutex while main does and keeps it for a while, so under
 *    the shim they move onto the mutex's queue; plain lockers pile up on
 *    it too, holds of over 1 ms push it into hand-off mode.  Every waiter
 *    returns owning the mutex, every locker gets in. */
#define HERD 6
#define LOCKERS 3
#define LOCKER_ROUNDS 3

static pthread_mutex_t herd_mu;
static pthread_cond_t herd_cv = PTHREAD_COND_INITIALIZER;
static int herd_waiting, herd_inside;
static long herd_ok, herd_bad, herd_entries;
static int herd_fail;

static void herd_hold(void)
{
	if (++herd_inside != 1)
		herd_bad++;
	herd_entries++;
	struct timespec ts = { 0, 1500000 };
	nanosleep(&ts, NULL);
	herd_inside--;
}

static void *herd_member(void *arg)
{
	long id = (long)arg;
	if (id >= HERD) {
		/* A plain locker, queued before the broadcast; relocking at
		 * once, it barges ahead of whoever its unlock woke. */
		for (int i = 0; i < LOCKER_ROUNDS; i++) {
			pthread_mutex_lock(&herd_mu);
			herd_hold();
			pthread_mutex_unlock(&herd_mu);
		}
		return NULL;
	}
	pthread_mutex_lock(&herd_mu);
	herd_waiting++;
	int r;
	if (id % 2) {
		struct timespec dl = deadline_in(CLOCK_REALTIME, 20000000000L);
		r = pthread_cond_timedwait(&herd_cv, &herd_mu, &dl);
	} else {
		r = pthread_cond_wait(&herd_cv, &herd_mu);
	}
	herd_hold();
	/* Owned again, once: one unlock succeeds, a second is not ours. */
	int u1 = pthread_mutex_unlock(&herd_mu);
	int u2 = pthread_mutex_unlock(&herd_mu);
	if (r == 0 && u1 == 0 && u2 == EPERM)
		atomic_inc(&herd_ok);
	return NULL;
}

static void *herd_broadcaster(void *arg)
{
	pthread_cond_broadcast(&herd_cv);
	return arg;
}

static void herd_test(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&herd_mu, &a);
	herd_waiting = 0;
	herd_ok = herd_bad = herd_entries = 0;
	pthread_t t[HERD + LOCKERS], b;
	for (long i = 0; i < HERD; i++)
		pthread_create(&t[i], NULL, herd_member, (void *)i);
	/* Wait until every waiter is inside its wait (it let the mutex go). */
	for (;;) {
		pthread_mutex_lock(&herd_mu);
		if (herd_waiting == HERD)
			break;
		pthread_mutex_unlock(&herd_mu);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	for (long i = HERD; i < HERD + LOCKERS; i++)
		pthread_create(&t[i], NULL, herd_member, (void *)i);
	struct timespec ts = { 0, 2000000 };
	nanosleep(&ts, NULL);
	pthread_create(&b, NULL, herd_broadcaster, NULL);
	pthread_join(b, NULL);
	nanosleep(&ts, NULL);
	pthread_mutex_unlock(&herd_mu);
	for (int i = 0; i < HERD + LOCKERS; i++)
		pthread_join(t[i], NULL);
	herd_fail += herd_ok != HERD || herd_entries != HERD + LOCKERS * LOCKER_ROUNDS || herd_bad != 0;
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

	for (int i = 0; i < 20; i++)
		herd_test();
	CHECK(herd_fail == 0, "herd: every waiter woke owning the mutex, one holder at a time");
	return failures != 0;
}
