/* Priority-inheritance futexes (FUTEX_LOCK_PI, LOCK_PI2, TRYLOCK_PI,
 * UNLOCK_PI, WAIT_REQUEUE_PI, CMP_REQUEUE_PI) on words in this process's
 * memory, in user space.
 *
 * The kernel's PI futexes name the owner by kernel TID and block the
 * waiter's task on an rt_mutex owned by that task.  Under the shim a G's
 * TID (the one in its TCB, which glibc's own PI fast paths store) names
 * no task, and Gs share Ms: the kernel would fail with ESRCH or EDEADLK,
 * or block an M on a word owned by a G that is not running.  So the
 * protocol runs here, on the word format the kernel defines, so that a
 * program's user-space fast paths (CAS 0 -> TID to lock, TID -> 0 to
 * unlock while FUTEX_WAITERS is clear) interoperate unchanged:
 *
 *   word = owner TID | FUTEX_WAITERS (someone may be queued: unlock must
 *          come here) | FUTEX_OWNER_DIED (the previous owner died)
 *
 * Waiters are Gs parked on the word's address with the bit set 0, which
 * no FUTEX_WAKE matches.  UNLOCK_PI hands the lock to the oldest waiter
 * (its TID | FUTEX_WAITERS, as the kernel's wake_futex_pi): priorities are
 * not acted upon, Gs share their Ms (docs/compat.md).  A G that exits
 * owning a word with waiters hands it to the first with FUTEX_OWNER_DIED,
 * as the kernel's exit_pi_state_list does for a dying task; a waiter that
 * queued just after that look finds the owner gone at its next periodic
 * check and takes the word the same way. */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "foreign.h"
#include "futex.h"
#include "lock.h"
#include "registry.h"
#include "sema.h"
#include "sys.h"
#include "timer.h"
#include "waitq.h"

#define TID(w) ((int)((w) & FUTEX_TID_MASK))

/* Gs parked as PI lock waiters, process-wide: an exit looks for words to
 * hand over only when there may be some. */
static uint32_t npiwaiters;

struct findtid {
	int tid;
	bool live;
};

static void match_tid(struct g *gp, void *arg)
{
	struct findtid *f = arg;
	if (gp->tid == f->tid && __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) != G_DEAD)
		f->live = true;
}

/* Whether a thread with this TID exists (the kernel's ESRCH otherwise):
 * a G of ours, or a task. */
static bool owner_alive(int tid)
{
	if (tid >= GMP_TID_BASE) {
		struct findtid f = { tid, false };
		gmp_registry_foreach(match_tid, &f);
		return f.live;
	}
	return gmp_syscall(SYS_kill, tid, 0, 0) != -ESRCH;
}

/* The oldest PI lock waiter on addr (the bucket lock is held). */
static struct g *pi_head(struct semroot *root, const void *addr)
{
	struct g *gp = waitq_head(root, addr);
	while (gp && gp->waitbits != 0)
		gp = gp->waitlink;
	return gp;
}

/* Gives the word to gp, dequeued, with the lock of the bucket held, and
 * returns it to be readied once the lock is dropped. */
static struct g *hand_to(struct semroot *root, uint32_t *uaddr, struct g *gp, uint32_t extra)
{
	waitq_remove(root, gp);
	__atomic_store_n(uaddr, (uint32_t)gp->tid | FUTEX_WAITERS | extra, __ATOMIC_RELEASE);
	gp->wakeup = GMP_WAKE_HANDOFF;
	return gp;
}

/* Takes a free word (TID 0) for tid under the bucket lock: keeps
 * FUTEX_OWNER_DIED for the new owner to see, and sets FUTEX_WAITERS if
 * waiters are queued.  Returns false if the word changed meanwhile. */
static bool take_free(struct semroot *root, uint32_t *uaddr, uint32_t old, int tid, bool waiters)
{
	uint32_t want = (uint32_t)tid | (old & FUTEX_OWNER_DIED) |
			(waiters || pi_head(root, uaddr) ? FUTEX_WAITERS : 0);
	return __atomic_compare_exchange_n(uaddr, &old, want, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* How often a PI waiter with no deadline looks whether its owner died. */
#define OWNER_RECHECK_NS 100000000

/* What the kernel gives the top waiter of a PI word whose owner died
 * holding it: the word, with FUTEX_OWNER_DIED.  Only if the word is still
 * w (the dead owner's, FUTEX_WAITERS set) under the bucket lock. */
static bool take_from_dead(struct semroot *root, uint32_t *uaddr, uint32_t w, int self)
{
	lock(&root->lock);
	uint32_t want = (uint32_t)self | FUTEX_OWNER_DIED | (pi_head(root, uaddr) ? FUTEX_WAITERS : 0);
	bool got = __atomic_compare_exchange_n(uaddr, &w, want, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
	unlock(&root->lock);
	return got;
}

long gmp_futex_lock_pi(uint32_t *uaddr, int64_t deadline, bool try)
{
	int self = gmp_self_tid();
	struct semroot *root = semroot(uaddr);
	bool checked = false;
	for (;;) {
		uint32_t w = __atomic_load_n(uaddr, __ATOMIC_ACQUIRE);
		if (TID(w) == 0) {
			lock(&root->lock);
			bool got = take_free(root, uaddr, w, self, false);
			unlock(&root->lock);
			if (got)
				return 0;
			continue;
		}
		if (TID(w) == self)
			return -EDEADLK;
		if (try)
			return -EAGAIN;
		if (!checked) {
			if (!owner_alive(TID(w))) {
				/* As the kernel's handle_exit_race: an owner that
				 * released the word and then exited is no dead owner. */
				if (__atomic_load_n(uaddr, __ATOMIC_ACQUIRE) != w)
					continue;
				return -ESRCH;
			}
			checked = true;
		}
		if (!(w & FUTEX_WAITERS)) {
			if (!__atomic_compare_exchange_n(uaddr, &w, w | FUTEX_WAITERS, 0, __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
				continue;
			w |= FUTEX_WAITERS;
		}
		/* Parks only if the word is still w under the bucket lock,
		 * which every unlock that could miss us takes. */
		__atomic_add_fetch(&npiwaiters, 1, __ATOMIC_SEQ_CST);
		/* An owner exiting just as we queue may have looked for
		 * waiters before we were there: without a deadline of our
		 * own, look at the owner again now and then. */
		int64_t until = deadline >= 0 ? deadline : gmp_nanotime() + OWNER_RECHECK_NS;
		int r = gmp_futexwait_bits(uaddr, w, until, WAIT_FUTEX, 0);
		__atomic_sub_fetch(&npiwaiters, 1, __ATOMIC_RELAXED);
		if (r == GMP_WAKE_HANDOFF)
			return 0;
		if (r == ETIMEDOUT && deadline >= 0)
			return -ETIMEDOUT;
		if (r == ETIMEDOUT && !owner_alive(TID(w)) && take_from_dead(root, uaddr, w, self))
			return 0;
		/* EAGAIN, or EINTR: the kernel restarts a PI lock after a
		 * handler (ERESTARTNOINTR); so do we. */
	}
}

long gmp_futex_unlock_pi(uint32_t *uaddr)
{
	int self = gmp_self_tid();
	struct semroot *root = semroot(uaddr);
	lock(&root->lock);
	for (;;) {
		uint32_t w = __atomic_load_n(uaddr, __ATOMIC_ACQUIRE);
		if (TID(w) != self) {
			unlock(&root->lock);
			return -EPERM;
		}
		struct g *gp = pi_head(root, uaddr);
		if (gp) {
			hand_to(root, uaddr, gp, 0);
			unlock(&root->lock);
			gp->schedlink = NULL;
			gmp_semq_ready(gp);
			return 0;
		}
		/* A locker may be setting FUTEX_WAITERS outside the lock: it
		 * then sees 0 when it comes to park, and takes the word. */
		if (__atomic_compare_exchange_n(uaddr, &w, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
			unlock(&root->lock);
			return 0;
		}
	}
}

long gmp_futex_wait_requeue_pi(uint32_t *uaddr, uint32_t val, int64_t deadline, uint32_t *uaddr2)
{
	if (uaddr == uaddr2)
		return -EINVAL;
	struct g *gp = gmp_thisg();
	if (gp == NULL)
		return -ENOMEM; /* a foreign thread with no memory for its wait state */
	for (;;) {
		gp->pitarget = uaddr2;
		/* A wait that returns before it parks (uaddr no longer holds
		 * val) leaves the bits alone: without this they could be the
		 * 0 of a past requeue, and the EAGAIN would pass for one. */
		gp->waitbits = FUTEX_BITSET_MATCH_ANY;
		__atomic_add_fetch(&npiwaiters, 1, __ATOMIC_RELAXED);
		int r = gmp_futexwait_bits(uaddr, val, deadline, WAIT_FUTEX, FUTEX_BITSET_MATCH_ANY);
		__atomic_sub_fetch(&npiwaiters, 1, __ATOMIC_RELAXED);
		/* CMP_REQUEUE_PI clears the bits of a G it moves to uaddr2. */
		bool moved = gp->waitbits == 0;
		gp->pitarget = NULL;
		if (r == GMP_WAKE_HANDOFF)
			return 0; /* requeued and given the lock */
		if (r == ETIMEDOUT)
			return -ETIMEDOUT;
		/* After a handler the kernel restarts the wait (ERESTARTNOINTR):
		 * for the lock if it had been requeued, else on uaddr. */
		if (moved)
			return gmp_futex_lock_pi(uaddr2, deadline, false);
		if (r != EINTR)
			return -EAGAIN; /* woken by a plain wake, or uaddr no longer held val */
	}
}

long gmp_futex_cmp_requeue_pi(uint32_t *uaddr, int nwake, uint32_t *uaddr2, int nmove, uint32_t cmpval)
{
	if (nwake != 1 || uaddr == uaddr2)
		return -EINVAL;
	struct semroot *r1 = semroot(uaddr), *r2 = semroot(uaddr2);
	struct g *list = NULL, **tail = &list;
	int woken = 0, moved = 0;
	long err = 0;
	waitq_lock2(r1, r2);
	if (__atomic_load_n(uaddr, __ATOMIC_ACQUIRE) != cmpval) {
		waitq_unlock2(r1, r2);
		return -EAGAIN;
	}
	/* The first waiter gets the lock if it is free (the kernel's proxy
	 * trylock); the others, up to nmove, are moved to wait for it as PI
	 * lock waiters.  After the first step FUTEX_WAITERS is set, so the
	 * owner's unlock needs r2's lock, which we hold. */
	struct g *gp;
	while ((gp = waitq_head(r1, uaddr)) != NULL) {
		if (gp->pitarget != uaddr2) {
			err = -EINVAL; /* it waits to be requeued elsewhere, or not at all */
			break;
		}
		uint32_t w = __atomic_load_n(uaddr2, __ATOMIC_ACQUIRE);
		if (TID(w) == gp->tid) {
			err = -EDEADLK;
			break;
		}
		if (TID(w) == 0) {
			if (!take_free(r2, uaddr2, w, gp->tid, true))
				continue;
			waitq_remove(r1, gp);
			gp->wakeup = GMP_WAKE_HANDOFF;
			*tail = gp;
			tail = &gp->schedlink;
			woken++;
			continue;
		}
		if (moved >= nmove)
			break;
		if (!(w & FUTEX_WAITERS) &&
		    !__atomic_compare_exchange_n(uaddr2, &w, w | FUTEX_WAITERS, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		waitq_remove(r1, gp);
		gp->waitbits = 0; /* now a PI lock waiter: no FUTEX_WAKE matches it */
		waitq_enqueue(r2, uaddr2, gp);
		__atomic_store_n(&gp->timer.waitaddr, (const void *)uaddr2, __ATOMIC_RELEASE);
		moved++;
	}
	*tail = NULL;
	waitq_unlock2(r1, r2);
	if (list)
		gmp_semq_ready(list);
	return err ? err : woken + moved;
}

struct deadowner {
	struct semroot *root;
	int tid;
	struct g *waiter; /* the PI waiter of the word found */
};

static bool owned_by(struct g *h, void *arg)
{
	struct deadowner *d = arg;
	uint32_t *uaddr = (uint32_t *)h->waitaddr;
	struct g *w = pi_head(d->root, uaddr);
	if (w == NULL || TID(__atomic_load_n(uaddr, __ATOMIC_ACQUIRE)) != d->tid)
		return false;
	d->waiter = w;
	return true;
}

/* The kernel, at a task's death, gives each PI futex it owns with waiters
 * to the top waiter, who finds FUTEX_OWNER_DIED in the word. */
void gmp_futex_pi_exit(struct g *gp)
{
	if (__atomic_load_n(&npiwaiters, __ATOMIC_SEQ_CST) == 0)
		return;
	for (int i = 0; i < SEMTAB_SIZE; i++) {
		struct deadowner d = { waitq_bucket(i), gp->tid, NULL };
		lock(&d.root->lock);
		struct g *h = waitq_find_head(d.root, owned_by, &d);
		if (h)
			hand_to(d.root, (uint32_t *)h->waitaddr, d.waiter, FUTEX_OWNER_DIED);
		unlock(&d.root->lock);
		if (h) {
			d.waiter->schedlink = NULL;
			gmp_semq_ready(d.waiter);
			i--; /* the bucket's queues changed: look at it again */
		}
	}
}
