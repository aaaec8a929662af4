/* Mutex torture: threads lock, trylock, timedlock (CLOCK_REALTIME) and
 * clocklock (CLOCK_MONOTONIC) with random timeouts of up to 200 us, some
 * holding the lock long enough to make others time out, on every mutex
 * type.  Invariants: one holder at a time, every success counted once
 * in the protected counter, every attempt ends in success, ETIMEDOUT or
 * EBUSY and nothing else, and a timed-out lock call does not own it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "torture.h"

#define THREADS 8
#define ITERS 6000

static pthread_mutex_t mu;
static int type;
static int inside;                 /* holders right now: must stay 0 or 1 */
static long counter;               /* bumped only under mu */
static long successes, timeouts, busy, violations, bad_errors;

static void critical(uint32_t *seed)
{
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_RELAXED) != 1)
		atomic_inc(&violations);
	counter++;
	/* Now and then a long hold, so that timed waiters really time out. */
	if (rnd(seed) % 64 == 0) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
	if (type == PTHREAD_MUTEX_RECURSIVE && rnd(seed) % 4 == 0) {
		/* A nested lock of a recursive mutex never blocks. */
		if (pthread_mutex_lock(&mu) != 0 || pthread_mutex_unlock(&mu) != 0)
			atomic_inc(&bad_errors);
	}
	__atomic_sub_fetch(&inside, 1, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	uint32_t seed = 0x9e3779b9u * (uint32_t)((long)arg + 1);
	for (int i = 0; i < ITERS; i++) {
		int r;
		switch (rnd(&seed) % 4) {
		case 0:
			r = pthread_mutex_lock(&mu);
			break;
		case 1:
			r = pthread_mutex_trylock(&mu);
			break;
		case 2: {
			struct timespec ts = rnd_deadline(&seed, CLOCK_REALTIME, 200);
			r = pthread_mutex_timedlock(&mu, &ts);
			break;
		}
		default: {
			struct timespec ts = rnd_deadline(&seed, CLOCK_MONOTONIC, 200);
			r = pthread_mutex_clocklock(&mu, CLOCK_MONOTONIC, &ts);
			break;
		}
		}
		if (r == 0) {
			critical(&seed);
			atomic_inc(&successes);
			if (pthread_mutex_unlock(&mu) != 0)
				atomic_inc(&bad_errors);
		} else if (r == ETIMEDOUT) {
			atomic_inc(&timeouts);
			/* Not ours: an errorcheck or recursive mutex says so. */
			if (type != PTHREAD_MUTEX_NORMAL && pthread_mutex_unlock(&mu) != EPERM)
				atomic_inc(&bad_errors);
		} else if (r == EBUSY) {
			atomic_inc(&busy);
		} else {
			atomic_inc(&bad_errors);
		}
	}
	return NULL;
}

static void round_of(int t, const char *name)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, t);
	pthread_mutex_init(&mu, &a);
	pthread_mutexattr_destroy(&a);
	type = t;
	counter = successes = timeouts = busy = violations = bad_errors = 0;
	run_threads(THREADS, worker);
	char what[128];
	snprintf(what, sizeof what, "%s: %d attempts all accounted for", name, THREADS * ITERS);
	CHECK(successes + timeouts + busy == THREADS * ITERS, what);
	snprintf(what, sizeof what, "%s: protected counter equals successes", name);
	CHECK(counter == successes, what);
	snprintf(what, sizeof what, "%s: never two holders", name);
	CHECK(violations == 0, what);
	snprintf(what, sizeof what, "%s: only 0, ETIMEDOUT, EBUSY (EPERM if not owner)", name);
	CHECK(bad_errors == 0, what);
	snprintf(what, sizeof what, "%s: free at the end, destroy succeeds", name);
	CHECK(pthread_mutex_trylock(&mu) == 0 && pthread_mutex_unlock(&mu) == 0 && pthread_mutex_destroy(&mu) == 0,
	      what);
	fprintf(stderr, "%s: %ld ok, %ld timed out, %ld busy\n", name, successes, timeouts, busy);
}

int main(void)
{
	round_of(PTHREAD_MUTEX_NORMAL, "normal");
	round_of(PTHREAD_MUTEX_ERRORCHECK, "errorcheck");
	round_of(PTHREAD_MUTEX_RECURSIVE, "recursive");
	return failures != 0;
}
