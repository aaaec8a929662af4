/* rwlock torture, with reader preference (the default) and writer
 * preference: readers and writers take the lock with the plain, try,
 * timed (CLOCK_REALTIME) and clock (CLOCK_MONOTONIC) calls and random
 * timeouts.  Invariants: never a writer together with anyone, a writer's
 * two-word update never seen half done, every writer success counted
 * exactly once, every attempt accounted for. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "torture.h"

#define READERS 6
#define WRITERS 3
#define ITERS 4000

static pthread_rwlock_t rw;
static int readers_in, writers_in;
static long a, b;                  /* a == b outside a write */
static long wins, rwins, fails, torn, overlap, bad_errors;

/* 0: got it; 1: timed out or busy; counts anything else. */
static int take(bool write, uint32_t *seed)
{
	int r;
	switch (rnd(seed) % 4) {
	case 0:
		r = write ? pthread_rwlock_wrlock(&rw) : pthread_rwlock_rdlock(&rw);
		break;
	case 1:
		r = write ? pthread_rwlock_trywrlock(&rw) : pthread_rwlock_tryrdlock(&rw);
		break;
	case 2: {
		struct timespec ts = rnd_deadline(seed, CLOCK_REALTIME, 200);
		r = write ? pthread_rwlock_timedwrlock(&rw, &ts) : pthread_rwlock_timedrdlock(&rw, &ts);
		break;
	}
	default: {
		struct timespec ts = rnd_deadline(seed, CLOCK_MONOTONIC, 200);
		r = write ? pthread_rwlock_clockwrlock(&rw, CLOCK_MONOTONIC, &ts)
			  : pthread_rwlock_clockrdlock(&rw, CLOCK_MONOTONIC, &ts);
		break;
	}
	}
	if (r == 0)
		return 0;
	if (r != ETIMEDOUT && r != EBUSY)
		atomic_inc(&bad_errors);
	atomic_inc(&fails);
	return 1;
}

static void *writer(void *arg)
{
	uint32_t seed = 0xabcdefu * (uint32_t)((long)arg + 1);
	for (int i = 0; i < ITERS; i++) {
		if (take(true, &seed))
			continue;
		if (__atomic_add_fetch(&writers_in, 1, __ATOMIC_SEQ_CST) != 1 ||
		    __atomic_load_n(&readers_in, __ATOMIC_SEQ_CST) != 0)
			atomic_inc(&overlap);
		a++;
		if (rnd(&seed) % 32 == 0) {
			struct timespec ts = { 0, 50000 };
			nanosleep(&ts, NULL); /* a long write makes timed waiters time out */
		}
		b++;
		wins++;
		__atomic_sub_fetch(&writers_in, 1, __ATOMIC_SEQ_CST);
		if (pthread_rwlock_unlock(&rw) != 0)
			atomic_inc(&bad_errors);
	}
	return NULL;
}

static void *reader(void *arg)
{
	uint32_t seed = 0xfedcbau * (uint32_t)((long)arg + 1);
	for (int i = 0; i < ITERS; i++) {
		if (take(false, &seed))
			continue;
		__atomic_add_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&writers_in, __ATOMIC_SEQ_CST) != 0)
			atomic_inc(&overlap);
		long x = __atomic_load_n(&a, __ATOMIC_RELAXED);
		if (rnd(&seed) % 16 == 0)
			sched_yield();
		if (__atomic_load_n(&b, __ATOMIC_RELAXED) != x)
			atomic_inc(&torn);
		atomic_inc(&rwins);
		__atomic_sub_fetch(&readers_in, 1, __ATOMIC_SEQ_CST);
		if (pthread_rwlock_unlock(&rw) != 0)
			atomic_inc(&bad_errors);
	}
	return NULL;
}

static void *member(void *arg)
{
	long i = (long)arg;
	return i < WRITERS ? writer(arg) : reader(arg);
}

static void round_of(int kind, const char *name)
{
	pthread_rwlockattr_t at;
	pthread_rwlockattr_init(&at);
	pthread_rwlockattr_setkind_np(&at, kind);
	pthread_rwlock_init(&rw, &at);
	pthread_rwlockattr_destroy(&at);
	a = b = wins = rwins = fails = torn = overlap = bad_errors = 0;
	run_threads(READERS + WRITERS, member);
	char what[128];
	snprintf(what, sizeof what, "%s: %d attempts all accounted for", name, (READERS + WRITERS) * ITERS);
	CHECK(wins + rwins + fails == (READERS + WRITERS) * ITERS, what);
	snprintf(what, sizeof what, "%s: both words equal the writer successes", name);
	CHECK(a == wins && b == wins, what);
	snprintf(what, sizeof what, "%s: no writer alongside anyone, no torn read", name);
	CHECK(overlap == 0 && torn == 0, what);
	snprintf(what, sizeof what, "%s: only 0, ETIMEDOUT, EBUSY", name);
	CHECK(bad_errors == 0, what);
	snprintf(what, sizeof what, "%s: free at the end, destroy succeeds", name);
	CHECK(pthread_rwlock_trywrlock(&rw) == 0 && pthread_rwlock_unlock(&rw) == 0 && pthread_rwlock_destroy(&rw) == 0,
	      what);
	fprintf(stderr, "%s: %ld writes, %ld reads, %ld failed\n", name, wins, rwins, fails);
}

int main(void)
{
	round_of(PTHREAD_RWLOCK_PREFER_READER_NP, "reader preference");
	round_of(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, "writer preference");
	return failures != 0;
}
