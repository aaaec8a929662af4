/* Torture of the smaller primitives.
 * 1. Barrier: every thread crosses ROUNDS barriers; exactly one serial
 *    thread per round, and after round r every thread has arrived at it.
 * 2. Spinlock: a counter bumped only under the lock ends exact, with
 *    never two holders.
 * 3. Raw futexes through syscall(): a three-state futex mutex whose
 *    waiters sometimes use FUTEX_WAIT with a random relative timeout or
 *    FUTEX_WAIT_BITSET with an absolute CLOCK_REALTIME or CLOCK_MONOTONIC
 *    one; and an event word that a waker bumps with FUTEX_WAKE while
 *    waiters wait for a given count (a lost wake-up hangs it). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "torture.h"

#define THREADS 8

#define ROUNDS 1500
static pthread_barrier_t bar;
static long arrived, serials, early;

static void *barrier_member(void *arg)
{
	for (int r = 0; r < ROUNDS; r++) {
		atomic_inc(&arrived);
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			atomic_inc(&serials);
		/* Everyone arrived at round r; a fast thread may be in r+1. */
		long a = atomic_get(&arrived);
		if (a < (long)THREADS * (r + 1) || a > (long)THREADS * (r + 2))
			atomic_inc(&early);
	}
	return arg;
}

#define SPINS 20000
static pthread_spinlock_t spin;
static int spin_inside;
static long spin_count, spin_overlap;

static void *spinner(void *arg)
{
	for (int i = 0; i < SPINS; i++) {
		pthread_spin_lock(&spin);
		if (++spin_inside != 1)
			spin_overlap++;
		spin_count++;
		spin_inside--;
		pthread_spin_unlock(&spin);
	}
	return arg;
}

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val, ts, NULL, val3);
}

#define FLOCKS 10000
static uint32_t fword;
static int f_inside;
static long f_count, f_overlap, f_bad;

static void fwait(uint32_t *seed)
{
	long r;
	switch (rnd(seed) % 4) {
	case 0:
		r = futex(&fword, FUTEX_WAIT, 2, NULL, 0);
		break;
	case 1: {
		struct timespec rel = { 0, (long)(rnd(seed) % 200) * 1000L };
		r = futex(&fword, FUTEX_WAIT, 2, &rel, 0);
		break;
	}
	case 2: {
		struct timespec ts = rnd_deadline(seed, CLOCK_REALTIME, 200);
		r = futex(&fword, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 2, &ts, FUTEX_BITSET_MATCH_ANY);
		break;
	}
	default: {
		struct timespec ts = rnd_deadline(seed, CLOCK_MONOTONIC, 200);
		r = futex(&fword, FUTEX_WAIT_BITSET, 2, &ts, FUTEX_BITSET_MATCH_ANY);
		break;
	}
	}
	if (r != 0 && errno != EAGAIN && errno != ETIMEDOUT && errno != EINTR)
		atomic_inc(&f_bad);
}

static void flock_(uint32_t *seed)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&fword, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&fword, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		fwait(seed);
		c = __atomic_exchange_n(&fword, 2, __ATOMIC_ACQUIRE);
	}
}

static void funlock(void)
{
	if (__atomic_exchange_n(&fword, 0, __ATOMIC_RELEASE) == 2)
		futex(&fword, FUTEX_WAKE, 1, NULL, 0);
}

static void *futex_locker(void *arg)
{
	uint32_t seed = 0xa54ff53au * (uint32_t)((long)arg + 1);
	for (int i = 0; i < FLOCKS; i++) {
		flock_(&seed);
		if (++f_inside != 1)
			f_overlap++;
		f_count++;
		if (rnd(&seed) % 64 == 0)
			sched_yield(); /* hold it across a switch */
		f_inside--;
		funlock();
	}
	return arg;
}

#define EVENTS 3000
static uint32_t event;
static long seen_events;

static void *event_member(void *arg)
{
	long id = (long)arg;
	if (id == 0) {
		/* The waker: bumps the word and wakes everyone, EVENTS times. */
		for (int i = 0; i < EVENTS; i++) {
			__atomic_add_fetch(&event, 1, __ATOMIC_RELEASE);
			futex(&event, FUTEX_WAKE, INT32_MAX, NULL, 0);
			if (i % 8 == 0)
				sched_yield();
		}
		return NULL;
	}
	/* A waiter: waits until the word reaches EVENTS, as a condition
	 * would, re-reading it after every wake-up. */
	uint32_t v;
	while ((v = __atomic_load_n(&event, __ATOMIC_ACQUIRE)) < EVENTS)
		futex(&event, FUTEX_WAIT, v, NULL, 0);
	atomic_inc(&seen_events);
	return NULL;
}

int main(void)
{
	pthread_barrier_init(&bar, NULL, THREADS);
	run_threads(THREADS, barrier_member);
	CHECK(serials == ROUNDS, "barrier: one serial thread per round");
	CHECK(early == 0 && arrived == (long)THREADS * ROUNDS, "barrier: nobody left a round early");
	CHECK(pthread_barrier_destroy(&bar) == 0, "barrier: destroyed");

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	run_threads(THREADS, spinner);
	CHECK(spin_count == (long)THREADS * SPINS && spin_overlap == 0, "spinlock: exact count, one holder");

	run_threads(THREADS, futex_locker);
	CHECK(f_count == (long)THREADS * FLOCKS && f_overlap == 0, "futex mutex: exact count, one holder");
	CHECK(f_bad == 0 && fword == 0, "futex mutex: only EAGAIN/ETIMEDOUT, free at the end");

	run_threads(THREADS, event_member);
	CHECK(seen_events == THREADS - 1, "futex event: every waiter saw the last event");
	return failures != 0;
}
