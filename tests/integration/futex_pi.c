/* Priority-inheritance futexes through syscall(), as perf bench futex
 * lock-pi and hand-written PI locks use them: LOCK_PI / UNLOCK_PI /
 * TRYLOCK_PI under contention (the word names each owner by a TID of its
 * own), the FUTEX_WAITERS hand-off, timeouts, an owner that exits with a
 * waiter (FUTEX_OWNER_DIED) or without (ESRCH), and a condition variable
 * built on WAIT_REQUEUE_PI / CMP_REQUEUE_PI.  A PI word in MAP_SHARED
 * memory is the kernel's natively and refused (ENOSYS) under the shim. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

#define TIDOF(w) ((w) & FUTEX_TID_MASK)

static long futex(uint32_t *w, int op, uint32_t val, const void *ts, uint32_t *w2, uint32_t val3)
{
	long r = syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, val, ts, w2, val3);
	return r < 0 ? -errno : r;
}

static long lock_pi(uint32_t *w)
{
	return futex(w, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
}

static long unlock_pi(uint32_t *w)
{
	return futex(w, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
}

/* --- contention --- */

#define NTHREADS 8
#define ITERS 3000

static uint32_t lockword;
static long counter;
static uint32_t tids[NTHREADS];
static int errors;

static void error(const char *what, long r)
{
	fprintf(stderr, "contention: %s: %ld\n", what, r);
	__atomic_add_fetch(&errors, 1, __ATOMIC_RELAXED);
}

static void *contend(void *arg)
{
	int me = (int)(intptr_t)arg;
	for (int i = 0; i < ITERS; i++) {
		long r = lock_pi(&lockword);
		if (r != 0) {
			error("LOCK_PI", r);
			continue;
		}
		uint32_t tid = TIDOF(__atomic_load_n(&lockword, __ATOMIC_RELAXED));
		if (tids[me] == 0)
			tids[me] = tid;
		/* Always the same TID, and the lock is ours: relocking is a
		 * deadlock, trylock too. */
		if (tid != tids[me])
			error("TID changed", (long)tid);
		if ((r = lock_pi(&lockword)) != -EDEADLK)
			error("relock", r);
		if ((r = futex(&lockword, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0)) != -EDEADLK)
			error("trylock", r);
		counter++;
		if (i % 100 == 0)
			sched_yield(); /* let the others queue up */
		if ((r = unlock_pi(&lockword)) != 0)
			error("UNLOCK_PI", r);
	}
	return NULL;
}

static void contention_test(void)
{
	pthread_t t[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, contend, (void *)(intptr_t)i);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	if (counter != (long)NTHREADS * ITERS)
		fprintf(stderr, "contention: counter %ld\n", counter);
	CHECK(errors == 0 && counter == (long)NTHREADS * ITERS,
	      "8 threads x 3000 LOCK_PI/UNLOCK_PI: exclusive, no error");
	int distinct = 1;
	for (int i = 0; i < NTHREADS; i++)
		for (int j = 0; j < i; j++)
			distinct &= tids[i] != 0 && tids[i] != tids[j];
	CHECK(distinct, "each thread's TID in the word is its own");
	CHECK(lockword == 0, "the word is 0 after the last unlock");
}

/* --- hand-off, trylock, EPERM, timeouts --- */

static uint32_t w2;
static long waiter_ret;
static uint32_t waiter_tid_seen;

static void *take_w2(void *arg)
{
	(void)arg;
	waiter_ret = lock_pi(&w2);
	waiter_tid_seen = TIDOF(w2);
	__atomic_store_n(&w2, w2, __ATOMIC_RELAXED);
	unlock_pi(&w2);
	return NULL;
}

static void *try_other(void *arg)
{
	long *r = arg;
	r[0] = futex(&w2, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0);
	r[1] = unlock_pi(&w2);
	struct timespec d = deadline_in(CLOCK_REALTIME, 20000000);
	r[2] = futex(&w2, FUTEX_LOCK_PI, 0, &d, NULL, 0);
	d = deadline_in(CLOCK_MONOTONIC, 20000000);
	r[3] = futex(&w2, FUTEX_LOCK_PI2, 0, &d, NULL, 0);
	d = deadline_in(CLOCK_REALTIME, 20000000);
	r[4] = futex(&w2, FUTEX_LOCK_PI2 | FUTEX_CLOCK_REALTIME, 0, &d, NULL, 0);
	r[5] = futex(&w2, FUTEX_LOCK_PI | FUTEX_CLOCK_REALTIME, 0, &d, NULL, 0);
	return NULL;
}

static void handoff_test(void)
{
	CHECK(futex(&w2, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0) == 0, "TRYLOCK_PI on a free word takes it");
	uint32_t mine = TIDOF(w2);
	long r[6];
	pthread_t t;
	pthread_create(&t, NULL, try_other, r);
	pthread_join(t, NULL);
	CHECK(r[0] == -EAGAIN, "TRYLOCK_PI on a word another thread holds: EAGAIN");
	CHECK(r[1] == -EPERM, "UNLOCK_PI by a thread that does not hold it: EPERM");
	CHECK(r[2] == -ETIMEDOUT && r[3] == -ETIMEDOUT && r[4] == -ETIMEDOUT,
	      "LOCK_PI (REALTIME), LOCK_PI2 (MONOTONIC, REALTIME) time out");
	CHECK(r[5] == -ENOSYS, "LOCK_PI with FUTEX_CLOCK_REALTIME: ENOSYS");

	pthread_create(&t, NULL, take_w2, NULL);
	while (!(__atomic_load_n(&w2, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		usleep(1000);
	CHECK(TIDOF(w2) == mine, "a blocked locker sets FUTEX_WAITERS, the owner stays");
	CHECK(unlock_pi(&w2) == 0, "UNLOCK_PI with a waiter");
	uint32_t after = __atomic_load_n(&w2, __ATOMIC_ACQUIRE);
	/* Handed over at once: the word names the waiter (or 0 once it
	 * already unlocked too), never us. */
	CHECK(TIDOF(after) != mine, "... hands the lock to the waiter");
	pthread_join(t, NULL);
	CHECK(waiter_ret == 0 && waiter_tid_seen != 0 && waiter_tid_seen != mine && w2 == 0,
	      "the waiter got it with its own TID and released it");
}

/* --- owner death --- */

static uint32_t w3;
static int owner_go;

static void *own_and_exit(void *arg)
{
	(void)arg;
	lock_pi(&w3);
	while (!__atomic_load_n(&owner_go, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL; /* exits holding w3 */
}

static void *lock_w3(void *arg)
{
	long *r = arg;
	r[0] = lock_pi(&w3);
	r[1] = w3;
	r[2] = unlock_pi(&w3);
	r[3] = w3;
	return NULL;
}

static void owner_death_test(void)
{
	pthread_t o, t;
	long r[4];
	pthread_create(&o, NULL, own_and_exit, NULL);
	while (TIDOF(__atomic_load_n(&w3, __ATOMIC_ACQUIRE)) == 0)
		usleep(1000);
	pthread_create(&t, NULL, lock_w3, r);
	while (!(__atomic_load_n(&w3, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		usleep(1000);
	__atomic_store_n(&owner_go, 1, __ATOMIC_RELEASE);
	pthread_join(o, NULL);
	pthread_join(t, NULL);
	CHECK(r[0] == 0 && (r[1] & FUTEX_OWNER_DIED),
	      "owner exits with a waiter: it gets the lock with FUTEX_OWNER_DIED");
	CHECK(r[2] == 0 && r[3] == 0, "... and unlocks it (word 0)");

	/* Nobody waited: the word keeps the dead TID. */
	owner_go = 0;
	pthread_create(&o, NULL, own_and_exit, NULL);
	while (TIDOF(__atomic_load_n(&w3, __ATOMIC_ACQUIRE)) == 0)
		usleep(1000);
	__atomic_store_n(&owner_go, 1, __ATOMIC_RELEASE);
	pthread_join(o, NULL);
	CHECK(lock_pi(&w3) == -ESRCH, "a word owned by an exited thread, no waiter: ESRCH");
}

/* --- a robust list registered through syscall() --- */

struct rlock {
	struct robust_list link;
	uint32_t word;
};

static struct rlock ra, rb;
static int robust_go;
static long robust_get_ok;
static long rb_wait_ret = 1;

/* The TID the futex calls name this thread by: what LOCK_PI stores. */
static uint32_t futex_tid(void)
{
	uint32_t scratch = 0;
	lock_pi(&scratch);
	uint32_t tid = TIDOF(scratch);
	unlock_pi(&scratch);
	return tid;
}

static void *robust_owner(void *arg)
{
	(void)arg;
	static __thread struct robust_list_head head;
	uint32_t tid = futex_tid();
	ra.word = tid;                  /* held */
	rb.word = tid | FUTEX_WAITERS;  /* held, with a waiter */
	head.futex_offset = (long)offsetof(struct rlock, word) - (long)offsetof(struct rlock, link);
	head.list.next = &ra.link;
	ra.link.next = &rb.link;
	rb.link.next = &head.list;
	head.list_op_pending = NULL;
	syscall(SYS_set_robust_list, &head, sizeof head);
	void *got = NULL;
	size_t len = 0;
	robust_get_ok = syscall(SYS_get_robust_list, 0, &got, &len) == 0 && got == &head && len == sizeof head;
	while (!__atomic_load_n(&robust_go, __ATOMIC_ACQUIRE))
		usleep(1000);
	return NULL; /* dies holding both */
}

static void *robust_waiter(void *arg)
{
	uint32_t v = *(uint32_t *)arg;
	long r = syscall(SYS_futex, &rb.word, FUTEX_WAIT, v, NULL, NULL, 0);
	rb_wait_ret = r < 0 ? -errno : r;
	return NULL;
}

static void robust_list_test(void)
{
	pthread_t o, w;
	pthread_create(&o, NULL, robust_owner, NULL);
	while (!(__atomic_load_n(&rb.word, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		usleep(1000);
	uint32_t v = rb.word;
	pthread_create(&w, NULL, robust_waiter, &v);
	/* Waiters on rb.word, counted without waking them. */
	while (syscall(SYS_futex, &rb.word, FUTEX_CMP_REQUEUE, 0, (void *)1, &rb.word, v) < 1)
		usleep(1000);
	__atomic_store_n(&robust_go, 1, __ATOMIC_RELEASE);
	pthread_join(o, NULL);
	pthread_join(w, NULL);
	CHECK(robust_get_ok, "get_robust_list returns the head set_robust_list registered");
	CHECK(ra.word == FUTEX_OWNER_DIED, "robust list at thread exit: a held word gets FUTEX_OWNER_DIED, TID 0");
	CHECK(rb.word == (FUTEX_OWNER_DIED | FUTEX_WAITERS) && rb_wait_ret == 0,
	      "... one with FUTEX_WAITERS keeps it and its waiter is woken");
}

/* --- a condition variable on requeue-PI --- */

#define CWAITERS 6
#define CROUNDS 200

static uint32_t cond, mutex;
static long produced, consumed, requeued_total, direct_total;
static int cv_errors;

static void cv_lock(void)
{
	if (lock_pi(&mutex) != 0)
		__atomic_add_fetch(&cv_errors, 1, __ATOMIC_RELAXED);
}

static void *consumer(void *arg)
{
	(void)arg;
	for (;;) {
		cv_lock();
		while (consumed == produced && produced >= 0) {
			uint32_t seq = cond;
			unlock_pi(&mutex);
			long r = futex(&cond, FUTEX_WAIT_REQUEUE_PI, seq, NULL, &mutex, 0);
			if (r == 0) {
				__atomic_add_fetch(&direct_total, 1, __ATOMIC_RELAXED);
				if (futex(&mutex, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0) != -EDEADLK)
					__atomic_add_fetch(&cv_errors, 1, __ATOMIC_RELAXED);
			} else if (r == -EAGAIN) {
				cv_lock();
			} else {
				__atomic_add_fetch(&cv_errors, 1, __ATOMIC_RELAXED);
				cv_lock();
			}
		}
		if (produced < 0) {
			unlock_pi(&mutex);
			return NULL;
		}
		consumed++;
		unlock_pi(&mutex);
	}
}

static void broadcast(void)
{
	cond++;
	long n = futex(&cond, FUTEX_CMP_REQUEUE_PI, 1, (void *)(uintptr_t)INT_MAX, &mutex, cond);
	if (n < 0)
		__atomic_add_fetch(&cv_errors, 1, __ATOMIC_RELAXED);
	else
		requeued_total += n;
}

static void requeue_pi_test(void)
{
	pthread_t t[CWAITERS];
	for (int i = 0; i < CWAITERS; i++)
		pthread_create(&t[i], NULL, consumer, NULL);
	for (int i = 0; i < CROUNDS; i++) {
		cv_lock();
		produced++;
		broadcast();
		unlock_pi(&mutex);
		if (i % 10 == 0)
			usleep(100);
	}
	for (;;) {
		cv_lock();
		int done = consumed == produced;
		if (done) {
			produced = -1;
			broadcast();
		}
		unlock_pi(&mutex);
		if (done)
			break;
		usleep(1000);
	}
	for (int i = 0; i < CWAITERS; i++)
		pthread_join(t[i], NULL);
	CHECK(cv_errors == 0 && consumed == CROUNDS, "requeue-PI condvar: 200 items, 6 consumers, no error");
	CHECK(requeued_total == direct_total,
	      "every WAIT_REQUEUE_PI that returned 0 was counted by CMP_REQUEUE_PI");
	CHECK(mutex == 0, "the PI mutex is free at the end");
	uint32_t c = 0, m = 0;
	CHECK(futex(&c, FUTEX_CMP_REQUEUE_PI, 2, (void *)1, &m, 0) == -EINVAL,
	      "CMP_REQUEUE_PI waking more than 1: EINVAL");
	CHECK(futex(&c, FUTEX_WAIT_REQUEUE_PI, 0, NULL, &c, 0) == -EINVAL,
	      "WAIT_REQUEUE_PI onto the same word: EINVAL");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	contention_test();
	handoff_test();
	owner_death_test();
	requeue_pi_test();
	robust_list_test();

	uint32_t *shm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long r = syscall(SYS_futex, shm, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	r = r < 0 ? -errno : r;
	CHECK(under_shim() ? r == -ENOSYS : r == 0 && TIDOF(*shm) == (uint32_t)gettid(),
	      "PI word in MAP_SHARED memory: the kernel's natively, ENOSYS under the shim");
	return failures != 0;
}
