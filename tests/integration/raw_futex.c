/* futex(2) through syscall(), the way Rust's std and libstdc++ use it:
 * a futex mutex under contention, timeouts, EAGAIN, bit sets and
 * CMP_REQUEUE. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts, uint32_t *uaddr2,
		  uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op | FUTEX_PRIVATE_FLAG, val, ts, uaddr2, val3);
}

/* Drepper's mutex: 0 free, 1 locked, 2 locked with waiters. */
static uint32_t lockword;
static long counter;

static void futex_lock(void)
{
	uint32_t c = 0;
	if (__atomic_compare_exchange_n(&lockword, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&lockword, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		futex(&lockword, FUTEX_WAIT, 2, NULL, NULL, 0);
		c = __atomic_exchange_n(&lockword, 2, __ATOMIC_ACQUIRE);
	}
}

static void futex_unlock(void)
{
	if (__atomic_exchange_n(&lockword, 0, __ATOMIC_RELEASE) == 2)
		futex(&lockword, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void *hammer(void *arg)
{
	for (int i = 0; i < 50000; i++) {
		futex_lock();
		counter++;
		if (i % 1000 == 0)
			sched_yield(); /* give others the chance to contend and sleep */
		futex_unlock();
	}
	return arg;
}

static uint32_t word, word2;
static int woken_a, woken_b;

static void *wait_bits(void *arg)
{
	uint32_t bits = (uint32_t)(uintptr_t)arg;
	futex(&word, FUTEX_WAIT_BITSET, 0, NULL, NULL, bits);
	__atomic_add_fetch(bits == 1 ? &woken_a : &woken_b, 1, __ATOMIC_RELAXED);
	return NULL;
}

static int requeued_done;
static void *wait_requeue(void *arg)
{
	while (__atomic_load_n(&word2, __ATOMIC_ACQUIRE) == 0)
		futex(&word, FUTEX_WAIT, 0, NULL, NULL, 0);
	__atomic_add_fetch(&requeued_done, 1, __ATOMIC_RELAXED);
	return arg;
}

/* Until n threads wait on w: counted without waking them, by a
 * CMP_REQUEUE of w onto itself (it returns how many it moved). */
static void until_waiting(uint32_t *w, long n)
{
	while (futex(w, FUTEX_CMP_REQUEUE, 0, (void *)(uintptr_t)INT_MAX, w, __atomic_load_n(w, __ATOMIC_ACQUIRE)) <
	       n) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
}

static void settle(void)
{
	/* Let the waiters reach their futex wait. */
	struct timespec ts = { 0, 20000000 };
	nanosleep(&ts, NULL);
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, hammer, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	CHECK(counter == 200000, "futex mutex: 4 x 50,000 increments exact");

	uint32_t v = 5;
	errno = 0;
	CHECK(futex(&v, FUTEX_WAIT, 4, NULL, NULL, 0) == -1 && errno == EAGAIN, "FUTEX_WAIT on a changed value: EAGAIN");
	struct timespec rel = { 0, 10000000 };
	errno = 0;
	CHECK(futex(&v, FUTEX_WAIT, 5, &rel, NULL, 0) == -1 && errno == ETIMEDOUT, "FUTEX_WAIT with a timeout: ETIMEDOUT");
	struct timespec abs = deadline_in(CLOCK_MONOTONIC, 10000000);
	errno = 0;
	CHECK(futex(&v, FUTEX_WAIT_BITSET, 5, &abs, NULL, FUTEX_BITSET_MATCH_ANY) == -1 && errno == ETIMEDOUT,
	      "FUTEX_WAIT_BITSET absolute deadline: ETIMEDOUT");
	CHECK(futex(&v, FUTEX_WAKE, 1, NULL, NULL, 0) == 0, "FUTEX_WAKE with no waiters: 0");
	errno = 0;
	CHECK(futex(&v, FUTEX_WAIT_BITSET, 5, NULL, NULL, 0) == -1 && errno == EINVAL, "an empty bit set: EINVAL");

	pthread_t a, b;
	pthread_create(&a, NULL, wait_bits, (void *)1);
	pthread_create(&b, NULL, wait_bits, (void *)2);
	until_waiting(&word, 2);
	long n = futex(&word, FUTEX_WAKE_BITSET, 10, NULL, NULL, 2);
	pthread_join(b, NULL);
	CHECK(n == 1 && woken_b == 1 && woken_a == 0, "WAKE_BITSET wakes only the matching waiter");
	futex(&word, FUTEX_WAKE, 10, NULL, NULL, 0);
	pthread_join(a, NULL);

	pthread_t r[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&r[i], NULL, wait_requeue, NULL);
	until_waiting(&word, 4);
	errno = 0;
	CHECK(futex(&word, FUTEX_CMP_REQUEUE, 1, (void *)1, &word2, 99) == -1 && errno == EAGAIN,
	      "CMP_REQUEUE with a stale value: EAGAIN");
	n = futex(&word, FUTEX_CMP_REQUEUE, 1, (void *)(uintptr_t)10, &word2, 0);
	CHECK(n == 4, "CMP_REQUEUE: 1 woken + 3 moved");
	settle();
	__atomic_store_n(&word2, 1, __ATOMIC_RELEASE);
	/* The woken one sees word2 == 0 or 1: it may wait on word again. */
	futex(&word, FUTEX_WAKE, 10, NULL, NULL, 0);
	n = futex(&word2, FUTEX_WAKE, 10, NULL, NULL, 0);
	CHECK(n == 3, "the moved waiters wait on the second futex");
	for (int i = 0; i < 4; i++)
		pthread_join(r[i], NULL);
	CHECK(requeued_done == 4, "all requeued waiters finish");

	printf("%s\n", failures ? "some checks FAILED" : "all checks passed");
	return failures != 0;
}
