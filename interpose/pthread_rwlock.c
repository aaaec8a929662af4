/* Reader-writer locks park the G.  The lock word counts readers, with the
 * top bit for a writer; counts of parked readers and writers decide who
 * may take it: by default readers enter while a writer waits (glibc's
 * reader preference), with PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP
 * they do not.  glibc's init validates the attribute and lays out the
 * object; process-shared rwlocks stay glibc's, blocking the M in a syscall. */
#include <errno.h>
#include <pthread.h>

#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/mutex.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/rtprio.h"
#include "shim/syscall.h"

#define RW(l) ((struct gmp_rwlock *)(l))
#define WRITER 0x80000000u
/* Readers beyond this many get EAGAIN; the headroom below WRITER is for
 * readers that add themselves and then take themselves out again. */
#define READERS_MAX 0x7fff0000u
/* Wait-queue bit sets: readers and writers park on the same word, and a
 * wake-up picks one kind. */
#define PARKED_READER 1u
#define PARKED_WRITER 2u

static bool reader_may_enter(struct gmp_rwlock *rw, uint32_t s)
{
	if (s & WRITER)
		return false;
	if (rw->flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return __atomic_load_n(&rw->wwait, __ATOMIC_ACQUIRE) == 0;
	return true;
}

/* Wakes up to n parked Gs of one kind and uncounts them from *waiting. */
static int wake(struct gmp_rwlock *rw, uint32_t *waiting, int n, uint32_t kind)
{
	int woken = gmp_futexwake_bits(&rw->state, n, kind);
	if (woken)
		__atomic_sub_fetch(waiting, (uint32_t)woken, __ATOMIC_ACQ_REL);
	return woken;
}

/* The lock went free; s is the word before the unlock that freed it.
 * Let in all parked readers or one writer: a writer when a writer left
 * and writers are preferred or no reader waits, or when the last reader
 * left; readers otherwise.  If the chosen kind has nobody parked any more
 * (timed out), try the other.  The waker uncounts those it wakes: a woken
 * G may wait a while for a P, and until then every unlock that frees the
 * lock would look in the wait queue for nobody (two bucket locks each). */
static void wake_freed(struct gmp_rwlock *rw, uint32_t s)
{
	/* Sequentially consistent, as is the decrement that freed the lock and
	 * a waiter's count before it looks at the word: one of the two sees
	 * the other. */
	bool readers = __atomic_load_n(&rw->rwait, __ATOMIC_SEQ_CST) != 0;
	bool writers = __atomic_load_n(&rw->wwait, __ATOMIC_SEQ_CST) != 0;
	if (!readers && !writers)
		return;
	bool writer_first = writers && (!(s & WRITER) || !readers ||
					 rw->flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	if (!writer_first || wake(rw, &rw->wwait, 1, PARKED_WRITER) == 0)
		if (wake(rw, &rw->rwait, 1 << 30, PARKED_READER) == 0 && !writer_first)
			wake(rw, &rw->wwait, 1, PARKED_WRITER);
	gmp_rt_preempt_point(); /* a realtime waiter above us runs now */
}

/* A reader enters by adding itself first, as glibc's does: one atomic
 * add, where a compare-and-swap loop fails and retries whenever another
 * reader's add moved the word first.  A reader that may not enter takes
 * itself out again, and while it was in, a writer's compare-and-swap
 * from 0 failed and it may have parked: whoever brings the word to 0
 * wakes the next owner, as an unlock does. */
static inline int tryrd(struct gmp_rwlock *rw)
{
	uint32_t s = __atomic_fetch_add(&rw->state, 1, __ATOMIC_ACQUIRE);
	if (reader_may_enter(rw, s) && (s & ~WRITER) < READERS_MAX)
		return 0;
	if (__atomic_sub_fetch(&rw->state, 1, __ATOMIC_SEQ_CST) == 0)
		wake_freed(rw, 0);
	return (s & WRITER) || (s & ~WRITER) < READERS_MAX ? EBUSY : EAGAIN;
}

/* After a first try found the lock unavailable. */
static int rdlock_wait(struct gmp_rwlock *rw, int64_t deadline)
{
	for (int spins = 0;; spins++) {
		if (!gmp_spin(spins)) {
			/* The writer itself asking to read would wait for itself
			 * forever; glibc reports it, as POSIX allows. */
			if (rw->writer == gmp_self_tid() && (__atomic_load_n(&rw->state, __ATOMIC_ACQUIRE) & WRITER))
				return EDEADLK;
			gmp_cancel_async_point();
			uint32_t s = __atomic_load_n(&rw->state, __ATOMIC_ACQUIRE);
			__atomic_add_fetch(&rw->rwait, 1, __ATOMIC_SEQ_CST);
			int err = reader_may_enter(rw, s)
					  ? EAGAIN
					  : gmp_futexwait_bits(&rw->state, s, deadline, WAIT_RWLOCK, PARKED_READER);
			if (err != 0) /* woken: the waker uncounted us (unlock) */
				__atomic_sub_fetch(&rw->rwait, 1, __ATOMIC_ACQ_REL);
			if (err == ETIMEDOUT)
				return tryrd(rw) == 0 ? 0 : ETIMEDOUT;
		}
		int err = tryrd(rw);
		if (err != EBUSY)
			return err;
	}
}

/* The first try inline: an uncontended read lock is one call. */
static inline int rdlock(struct gmp_rwlock *rw, int64_t deadline)
{
	int err = tryrd(rw);
	return err != EBUSY ? err : rdlock_wait(rw, deadline);
}

static int trywr(struct gmp_rwlock *rw)
{
	uint32_t z = 0;
	if (!__atomic_compare_exchange_n(&rw->state, &z, WRITER, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return EBUSY;
	rw->writer = gmp_self_tid();
	return 0;
}

static int wrlock(struct gmp_rwlock *rw, int64_t deadline)
{
	if (rw->writer == gmp_self_tid() && (rw->state & WRITER))
		return EDEADLK;
	for (int spins = 0;; spins++) {
		gmp_cancel_async_point();
		if (trywr(rw) == 0)
			return 0;
		if (gmp_spin(spins))
			continue;
		uint32_t s = __atomic_load_n(&rw->state, __ATOMIC_ACQUIRE);
		__atomic_add_fetch(&rw->wwait, 1, __ATOMIC_SEQ_CST);
		int err = s != 0 ? gmp_futexwait_bits(&rw->state, s, deadline, WAIT_RWLOCK, PARKED_WRITER) : EAGAIN;
		if (err != 0) /* woken: the waker uncounted us (unlock) */
			__atomic_sub_fetch(&rw->wwait, 1, __ATOMIC_ACQ_REL);
		if (err == ETIMEDOUT)
			return trywr(rw) == 0 ? 0 : ETIMEDOUT;
	}
}

#define SHARED_OR(l, call)                                                                         \
	do {                                                                                       \
		gmp_ensure_init();                                                                 \
		if (RW(l)->shared)                                                                 \
			return call;                                                               \
	} while (0)

/* A process-shared rwlock is glibc's, on kernel futexes: try first, then
 * block the M in a syscall. */
static int shared_block(pthread_rwlock_t *l, int (*try)(pthread_rwlock_t *), int (*lockf)(pthread_rwlock_t *),
			int (*clockf)(pthread_rwlock_t *, clockid_t, const struct timespec *), clockid_t clk,
			const struct timespec *t)
{
	int err = try(l);
	if (err != EBUSY)
		return err;
	err = GMP_BLOCKING_CALL(t ? clockf(l, clk, t) : lockf(l));
	return err;
}
#define RD(clk, t)                                                                                 \
	shared_block(l, gmp_real.pthread_rwlock_tryrdlock, gmp_real.pthread_rwlock_rdlock,               \
		     gmp_real.pthread_rwlock_clockrdlock, clk, t)
#define WR(clk, t)                                                                                 \
	shared_block(l, gmp_real.pthread_rwlock_trywrlock, gmp_real.pthread_rwlock_wrlock,               \
		     gmp_real.pthread_rwlock_clockwrlock, clk, t)

/* The timed variants.  POSIX lets a malformed time succeed on a free
 * lock; glibc checks the time first, and so do we (EINVAL either way). */
static int clocked(struct gmp_rwlock *rw, clockid_t clk, const struct timespec *abstime,
		   int (*lockf)(struct gmp_rwlock *, int64_t))
{
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	if (err)
		return err;
	return lockf(rw, deadline);
}

GMP_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	SHARED_OR(l, RD(0, NULL));
	return rdlock(RW(l), -1);
}

GMP_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	SHARED_OR(l, gmp_real.pthread_rwlock_tryrdlock(l));
	return tryrd(RW(l));
}

GMP_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t clk, const struct timespec *t)
{
	SHARED_OR(l, RD(clk, t));
	return clocked(RW(l), clk, t, rdlock);
}

GMP_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *t)
{
	return pthread_rwlock_clockrdlock(l, CLOCK_REALTIME, t);
}

GMP_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	SHARED_OR(l, WR(0, NULL));
	return wrlock(RW(l), -1);
}

GMP_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	SHARED_OR(l, gmp_real.pthread_rwlock_trywrlock(l));
	return trywr(RW(l));
}

GMP_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t clk, const struct timespec *t)
{
	SHARED_OR(l, WR(clk, t));
	return clocked(RW(l), clk, t, wrlock);
}

GMP_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *t)
{
	return pthread_rwlock_clockwrlock(l, CLOCK_REALTIME, t);
}

GMP_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	SHARED_OR(l, gmp_real.pthread_rwlock_unlock(l));
	struct gmp_rwlock *rw = RW(l);
	uint32_t s = __atomic_load_n(&rw->state, __ATOMIC_ACQUIRE);
	if (s == 0)
		return 0; /* undefined; glibc returns 0 too (and leaves its lock broken: ours stays usable) */
	uint32_t left;
	if (s & WRITER) {
		/* By a thread that is not the writer: undefined.  glibc takes it
		 * for a reader's unlock, returns 0 and the lock stays
		 * write-locked; so does ours. */
		if (rw->writer != gmp_self_tid())
			return 0;
		rw->writer = 0;
		/* Not a store of 0: readers that are taking themselves out
		 * again (tryrd) count in the word. */
		left = __atomic_sub_fetch(&rw->state, WRITER, __ATOMIC_SEQ_CST);
	} else {
		left = __atomic_sub_fetch(&rw->state, 1, __ATOMIC_SEQ_CST);
	}
	if (left == 0)
		wake_freed(rw, s);
	return 0;
}

GMP_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *l)
{
	if (RW(l)->shared)
		return gmp_real.pthread_rwlock_destroy(l);
	/* Destroying a held lock is undefined; glibc returns 0 whatever its
	 * state, and a program that destroys a lock an exited thread still
	 * holds relies on that.  Waiters parked on it stay parked, as on
	 * glibc's futex. */
	return 0;
}

/* glibc's internal names, still exported for old binaries. */
GMP_EXPORT int __pthread_rwlock_rdlock(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_rdlock")));
GMP_EXPORT int __pthread_rwlock_tryrdlock(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_tryrdlock")));
GMP_EXPORT int __pthread_rwlock_wrlock(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_wrlock")));
GMP_EXPORT int __pthread_rwlock_trywrlock(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_trywrlock")));
GMP_EXPORT int __pthread_rwlock_unlock(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_unlock")));
GMP_EXPORT int __pthread_rwlock_destroy(pthread_rwlock_t *l) __attribute__((alias("pthread_rwlock_destroy")));
