/* The lock word behind pthread mutexes, after Go's sync.Mutex.
 *
 * Normal mode: waiters queue FIFO on the address-keyed wait queue, but a
 * woken waiter competes with newly arriving threads for the lock, and
 * arrivals spin briefly first.  That keeps the lock word hot on a running
 * M and gives the best throughput, at the price of fairness.
 *
 * Starvation mode: a waiter that has waited more than 1 ms sets STARVING.
 * From then on unlock hands the lock directly to the oldest waiter, and
 * arrivals neither spin nor take a free-looking lock: they queue.  The
 * new owner leaves starvation mode if it is the last waiter or did not
 * wait long itself, as Go does. */
#include <errno.h>

#include "arch.h"
#include "cancel.h"
#include "mutex.h"
#include "preempt.h"
#include "rtprio.h"
#include "runq.h"
#include "runtime.h"
#include "sema.h"
#include "timer.h"

#define LOCKED GMP_MUTEX_LOCKED
#define WAITERS GMP_MUTEX_WAITERS
#define STARVING GMP_MUTEX_STARVING
#define STARVATION_NS 1000000

/* proc.go: sync_runtime_canSpin.  Spin only on a multicore machine with
 * other Ps running (the holder is likely running) and nothing else queued
 * on this P, and only a few times. */
static bool canspin(int iter)
{
	if (iter >= 4 || sched.gomaxprocs <= 1)
		return false;
	if (sched.gomaxprocs <= (int)(__atomic_load_n(&sched.npidle, __ATOMIC_RELAXED) +
				      __atomic_load_n(&sched.nmspinning, __ATOMIC_RELAXED) + 1))
		return false;
	struct g *gp = getg();
	if (gp == NULL)
		return false; /* a foreign thread (foreign.c): it blocks its own thread soon enough */
	struct p *pp = gp->m->p; /* NULL in a syscall */
	return pp != NULL && runqempty(pp);
}

bool gmp_spin(int iter)
{
	if (!canspin(iter))
		return false;
	for (int i = 0; i < 30; i++)
		gmp_arch_pause();
	return true;
}

static inline bool cas(uint32_t *w, uint32_t old, uint32_t new)
{
	return __atomic_compare_exchange_n(w, &old, new, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

int gmp_mutex_trylock(uint32_t *w)
{
	uint32_t s = __atomic_load_n(w, __ATOMIC_RELAXED);
	while (!(s & (LOCKED | STARVING))) {
		if (__atomic_compare_exchange_n(w, &s, s | LOCKED, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
	}
	return EBUSY;
}

static int lock_slow(uint32_t *w, int64_t deadline, int64_t waitstart, struct g *const *owner);

int gmp_mutex_lock_slow(uint32_t *w, struct g *const *owner, int64_t deadline)
{
	return lock_slow(w, deadline, 0, owner);
}

/* A condvar waiter moved onto this mutex's queue (sema.c: wait morphing)
 * and woken by an unlock is a waiter like any other: it takes the lock
 * keeping WAITERS set, since others moved with it may still be parked. */
void gmp_mutex_lock_requeued(uint32_t *w)
{
	lock_slow(w, -1, gmp_nanotime(), NULL);
}

static int lock_slow(uint32_t *w, int64_t deadline, int64_t waitstart, struct g *const *owner)
{
	int iter = 0;
	for (;;) {
		gmp_cancel_async_point();
		uint32_t s = __atomic_load_n(w, __ATOMIC_RELAXED);
		if (!(s & (LOCKED | STARVING))) {
			/* A woken waiter keeps WAITERS set: others may still be
			 * parked, and only unlock's look at the queue can tell. */
			if (cas(w, s, s | LOCKED | (waitstart ? WAITERS : 0)))
				return 0;
			continue;
		}
		if ((s & LOCKED) && !(s & STARVING) && gmp_spin(iter)) {
			iter++;
			continue;
		}
		uint32_t want = s | WAITERS;
		if (waitstart && (s & LOCKED) && gmp_nanotime() - waitstart > STARVATION_NS)
			want |= STARVING;
		if (want != s && !cas(w, s, want))
			continue;
		if (waitstart == 0)
			waitstart = gmp_nanotime();
		/* Priority inheritance: the owner runs at our priority while
		 * we wait (rtprio.c). */
		if (owner && gmp_rt_active() && getg())
			gmp_rt_pi_boost(__atomic_load_n(owner, __ATOMIC_ACQUIRE), getg());
		int r = gmp_futexwait(w, want, deadline, WAIT_MUTEX);
		if (r == GMP_WAKE_HANDOFF) {
			/* We own it.  Leave starvation mode when it has done its
			 * job: we are the last waiter, or we did not wait long. */
			if (gmp_nanotime() - waitstart < STARVATION_NS)
				__atomic_and_fetch(w, ~STARVING, __ATOMIC_RELAXED);
			return 0;
		}
		if (r == ETIMEDOUT)
			return ETIMEDOUT;
		iter = 0;
	}
}

void gmp_mutex_unlock_slow(uint32_t *w, uint32_t s)
{
	for (;;) {
		if (s & STARVING) {
			/* STARVING is only ever set while LOCKED, so the lock goes
			 * straight from us to the oldest waiter. */
			gmp_futex_handoff(w, LOCKED | WAITERS | STARVING, LOCKED, 0);
			gmp_rt_preempt_point(); /* a realtime waiter above us runs now */
			return;
		}
		/* Normal mode: release, then wake one waiter to compete for it.
		 * A CAS, not an AND: a waiter may turn STARVING on meanwhile. */
		if (__atomic_compare_exchange_n(w, &s, s & ~(LOCKED | WAITERS), 0, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED)) {
			if (s & WAITERS) {
				gmp_futexwake(w, 1);
				gmp_rt_preempt_point();
			}
			return;
		}
	}
}
