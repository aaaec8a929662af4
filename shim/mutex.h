/* The lock word behind pthread mutexes (mutex.c), after Go's sync.Mutex.
 * The word is also read by wait morphing (morph.c), which queues condvar
 * waiters behind a held mutex. */
#ifndef GMP_MUTEX_H
#define GMP_MUTEX_H

#include <stdbool.h>
#include <stdint.h>

#include "preempt.h"

#define GMP_MUTEX_LOCKED 1u
#define GMP_MUTEX_WAITERS 2u  /* a G may be parked: unlock must look at the queue */
#define GMP_MUTEX_STARVING 4u

/* A lock held for a moment is cheaper to wait for on the CPU than
 * through a park: spins a little and returns true while that may pay
 * (iter: the spins so far; proc.go's sync_runtime_canSpin and doSpin),
 * false once the caller should park. */
bool gmp_spin(int iter);

/* 0 or EBUSY. */
int gmp_mutex_trylock(uint32_t *w);
struct g;
/* What gmp_mutex_lock_pi and gmp_mutex_unlock do when the one atomic of
 * their inline part did not settle it. */
int gmp_mutex_lock_slow(uint32_t *w, struct g *const *owner, int64_t deadline);
void gmp_mutex_unlock_slow(uint32_t *w, uint32_t s);

/* On a G or a foreign thread, holding no runtime lock.  *owner, for a
 * PTHREAD_PRIO_INHERIT mutex (else NULL), is its owner's G (NULL while
 * free), which each park boosts to the caller's realtime priority
 * (rtprio.c).  deadline as in timer.h (-1: none); returns 0 or ETIMEDOUT.
 * Inline, as unlock: an uncontended pair costs about what glibc's does,
 * where calls through the shim's layers had doubled it. */
static inline int gmp_mutex_lock_pi(uint32_t *w, struct g *const *owner, int64_t deadline)
{
	gmp_preempt_point();
	uint32_t s = 0;
	if (__atomic_compare_exchange_n(w, &s, GMP_MUTEX_LOCKED, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	return gmp_mutex_lock_slow(w, owner, deadline);
}

static inline int gmp_mutex_lock(uint32_t *w, int64_t deadline)
{
	return gmp_mutex_lock_pi(w, NULL, deadline);
}

/* A condvar waiter that morphing moved onto w's queue and an unlock woke
 * (GMP_WAKE_REQUEUED) takes the lock here. */
void gmp_mutex_lock_requeued(uint32_t *w);

static inline void gmp_mutex_unlock(uint32_t *w)
{
	uint32_t s = GMP_MUTEX_LOCKED;
	if (!__atomic_compare_exchange_n(w, &s, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		gmp_mutex_unlock_slow(w, s);
}

/* Wait morphing asks, under the bucket lock of w: if the mutex is held,
 * mark it as having waiters (so its unlock looks at the queue) and say
 * yes; a free mutex gets no waiter queued behind it. */
static inline bool gmp_mutex_mark_waiter(uint32_t *w)
{
	uint32_t s = __atomic_load_n(w, __ATOMIC_RELAXED);
	while (s & GMP_MUTEX_LOCKED) {
		if ((s & GMP_MUTEX_WAITERS) ||
		    __atomic_compare_exchange_n(w, &s, s | GMP_MUTEX_WAITERS, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return true;
	}
	return false;
}

#endif
