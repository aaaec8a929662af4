#include <errno.h>

#include "cancel.h"
#include "compat/debug.h"
#include "foreign.h"
#include "futex.h"
#include "gsignal.h"
#include "lock.h"
#include "morph.h"
#include "preempt.h"
#include "proc.h"
#include "rtprio.h"
#include "runtime.h"
#include "sema.h"
#include "syscall.h"
#include "timer.h"
#include "waitq.h"

struct g *gmp_semq_dequeue(const void *addr)
{
	struct semroot *root = semroot(addr);
	lock(&root->lock);
	struct g *gp = waitq_dequeue(root, addr);
	unlock(&root->lock);
	return gp;
}

int gmp_semq_count(const void *addr)
{
	struct semroot *root = semroot(addr);
	int n = 0;
	lock(&root->lock);
	for (struct g *gp = waitq_head(root, addr); gp; gp = gp->waitlink)
		n++;
	unlock(&root->lock);
	return n;
}

int gmp_semq_timeout(struct g *gp, struct gmp_timer *t)
{
	/* A requeue may move the G to another address (and bucket) under
	 * our feet: follow the timer's waitaddr until it holds still. */
	for (;;) {
		const void *addr = __atomic_load_n(&t->waitaddr, __ATOMIC_ACQUIRE);
		if (addr == NULL)
			return 0; /* notified and moved by wait morphing: too late to time out */
		struct semroot *root = semroot(addr);
		lock(&root->lock);
		if (gp->waitaddr == addr) {
			waitq_remove(root, gp);
			gp->wakeup = ETIMEDOUT;
			unlock(&root->lock);
			return 1;
		}
		bool moved = gp->waitaddr != NULL && __atomic_load_n(&t->waitaddr, __ATOMIC_ACQUIRE) != addr;
		unlock(&root->lock);
		if (!moved)
			return 0; /* already woken */
	}
}

static void unlock_root(struct g *gp, void *arg)
{
	unlock(&((struct semroot *)arg)->lock);
}

/* Enqueues the running G on addr and parks it; root->lock is held on entry
 * and released once the G is switched out.  Callers take their P back
 * (getp_unlocked) before root->lock: a G that sysmon rescued from a blocking
 * call it made outside the shim (TSan's thread-start handshake is a raw
 * futex wait) has no P, and waiting for one inside gopark with the bucket
 * lock held stalls every G that touches the bucket, the one that would
 * free a P among them. */
static inline void getp_unlocked(void)
{
	if (getg() != NULL) /* not for a caller that is no G (it cannot park anyway) */
		gmp_getp();
}

/* The G that is about to wait: the running one, or a foreign thread's
 * proxy (foreign.c), made on its first wait. */
static struct g *waiter(void)
{
	struct g *gp = gmp_thisg();
	if (__builtin_expect(gp == NULL, 0))
		gmp_throw("foreign thread: no memory for its wait state");
	return gp;
}

/* park_locked for a foreign thread (foreign.c): it is queued like a G, but
 * blocks its own OS thread on its note.  A timed wait times itself out the
 * way the timer path does (gmp_semq_timeout, following a requeue); if a
 * waker dequeued it first, that waker's notewakeup is on its way. */
static int foreign_park(struct semroot *root, const void *addr, int64_t deadline, enum waitreason why,
			uint32_t bits, struct g *gp)
{
	gp->wakeup = 0;
	gp->waitbits = bits;
	gp->waitreason = why;
	noteclear(&gp->fnote);
	waitq_enqueue(root, addr, gp);
	__atomic_store_n(&gp->timer.waitaddr, addr, __ATOMIC_RELEASE);
	__atomic_store_n(&gp->status, G_WAITING, __ATOMIC_RELAXED);
	unlock(&root->lock);
	bool woken = deadline < 0;
	while (!woken) {
		int64_t left = gmp_deadline_left(deadline);
		if (left > 0) {
			/* A realtime deadline is the kernel's to follow across
			 * clock changes: slices of 20 ms, to look at the clock
			 * again, woke jemalloc's background thread in
			 * redis-server 50 times a second for nothing. */
			woken = gmp_deadline_is_realtime(deadline)
					? notetsleep_realtime(&gp->fnote, gmp_deadline_kernel_realtime(deadline))
					: notetsleep(&gp->fnote, left);
			continue;
		}
		if (gmp_semq_timeout(gp, &gp->timer)) {
			__atomic_store_n(&gp->status, G_RUNNING, __ATOMIC_RELAXED);
			break; /* off the queue, wakeup = ETIMEDOUT */
		}
		woken = true; /* dequeued by a waker: wait for its wake-up */
	}
	if (woken)
		notesleep(&gp->fnote);
	gp->waitreason = WAIT_NONE;
	return gp->wakeup;
}

static int park_locked(struct semroot *root, const void *addr, int64_t deadline, enum waitreason why,
		       uint32_t bits)
{
	struct g *gp = waiter();
	if (__builtin_expect(gp->flags & G_FOREIGN, 0))
		return foreign_park(root, addr, deadline, why, bits, gp);
	gp->wakeup = 0;
	gp->waitbits = bits;
	waitq_enqueue(root, addr, gp);
	bool timed = deadline >= 0;
	if (timed) {
		gp->timer.when = deadline;
		gp->timer.gp = gp;
		gp->timer.waitaddr = addr;
		gmp_timer_add(&gp->timer);
	}
	gopark(unlock_root, root, why);
	if (timed)
		gmp_timer_del(&gp->timer);
	/* The outcome is read before the signals sent meanwhile are raised:
	 * a handler that parks (a sleep, a read) reuses gp's wake-up code and
	 * timer.  Read after, a read whose handler slept returned the sleep's
	 * ETIMEDOUT, as EAGAIN (tests/integration/signal_restart at one P). */
	int r = gp->wakeup;
	if (__builtin_expect(gp->sigpending != 0, 0))
		gmp_sig_deliver_pending();
	if (r == EINTR)
		gmp_sig_call_answered(gp); /* with the handler just run */
	return r;
}

int gmp_futexwait(const uint32_t *addr, uint32_t val, int64_t deadline, enum waitreason why)
{
	return gmp_futexwait_bits(addr, val, deadline, why, ~0u);
}

int gmp_futexwait_bits(const uint32_t *addr, uint32_t val, int64_t deadline, enum waitreason why, uint32_t bits)
{
	/* A wait whose deadline is past parks nowhere: a loop of them would
	 * keep its P from the others whenever sysmon's signal lands in the
	 * runtime's code.  Not where the word changed: the caller may count
	 * itself a waiter meanwhile (pthread_rwlock.c's rwait), and a G that yielded
	 * here sent every unlock to the wait queue for nobody until it ran
	 * again (gmpbench's rwlock_read_mostly took twice as long); it goes
	 * back to the program's code, where the signal lands. */
	if (deadline >= 0 && gmp_deadline_left(deadline) <= 0) {
		gmp_preempt_point();
		return __atomic_load_n(addr, __ATOMIC_ACQUIRE) == val ? ETIMEDOUT : EAGAIN;
	}
	struct semroot *root = semroot(addr);
	getp_unlocked();
	lock(&root->lock);
	if (__atomic_load_n(addr, __ATOMIC_ACQUIRE) != val) {
		unlock(&root->lock);
		return EAGAIN;
	}
	return park_locked(root, addr, deadline, why, bits);
}

/* Readies Gs on the waker's P; a waker that is no G (glibc's helper
 * threads: a SIGEV_THREAD timer posting a semaphore) has none. */
void gmp_semq_ready(struct g *list)
{
	struct g *self = getg();
	gmp_ready_list(self ? self->m : NULL, list);
}

/* Dequeues up to n waiters on addr whose bits intersect bits, in FIFO
 * order, onto *tail, then futex_waitv waiters onto *claimed (NULL: none
 * taken).  The bucket lock is held. */
static int take_waiters(struct semroot *root, const void *addr, int n, uint32_t bits, struct g ***tail,
			struct waitv_state **claimed)
{
	int taken = 0;
	struct g *gp = waitq_head(root, addr);
	while (gp && taken < n) {
		struct g *next = gp->waitlink;
		if (gp->waitbits & bits) {
			waitq_remove(root, gp);
			**tail = gp;
			*tail = &gp->schedlink;
			taken++;
		}
		gp = next;
	}
	**tail = NULL;
	if (claimed && root->watchers && taken < n)
		taken += gmp_waitv_take(root, addr, n - taken, claimed);
	return taken;
}

struct g *gmp_futexwake_list(const void *addr, int n)
{
	struct semroot *root = semroot(addr);
	struct g *list = NULL, **tail = &list;
	lock(&root->lock);
	take_waiters(root, addr, n, ~0u, &tail, NULL);
	unlock(&root->lock);
	return list;
}

int gmp_futexwake(const void *addr, int n)
{
	return gmp_futexwake_bits(addr, n, ~0u);
}

int gmp_futexwake_bits(const void *addr, int n, uint32_t bits)
{
	struct semroot *root = semroot(addr);
	struct g *list = NULL, **tail = &list;
	struct waitv_state *claimed = NULL;
	lock(&root->lock);
	int woken = take_waiters(root, addr, n, bits, &tail, &claimed);
	unlock(&root->lock);
	gmp_semq_ready(list);
	gmp_waitv_notify(claimed);
	return woken;
}

int gmp_futexrequeue(const uint32_t *addr, int nwake, const uint32_t *addr2, int nmove, const uint32_t *cmpval)
{
	struct semroot *r1 = semroot(addr), *r2 = semroot(addr2);
	struct g *list = NULL, **tail = &list;
	waitq_lock2(r1, r2);
	if (cmpval && __atomic_load_n(addr, __ATOMIC_ACQUIRE) != *cmpval) {
		waitq_unlock2(r1, r2);
		return -EAGAIN;
	}
	struct waitv_state *claimed = NULL;
	int woken = take_waiters(r1, addr, nwake, ~0u, &tail, &claimed);
	int moved = 0;
	struct g *gp;
	if (addr == addr2) {
		/* Moved to the tail in the same order: they stay as they are,
		 * and the count is what a program polls the queue with. */
		for (gp = waitq_head(r1, addr); gp && moved < nmove; gp = gp->waitlink)
			moved++;
	}
	while (addr != addr2 && moved < nmove && (gp = waitq_dequeue(r1, addr))) {
		waitq_enqueue(r2, addr2, gp);
		__atomic_store_n(&gp->timer.waitaddr, (const void *)addr2, __ATOMIC_RELEASE);
		moved++;
	}
	if (moved < nmove && r1->watchers)
		moved += gmp_waitv_move(r1, addr, r2, addr2, nmove - moved);
	waitq_unlock2(r1, r2);
	gmp_semq_ready(list);
	gmp_waitv_notify(claimed);
	return woken + moved;
}

int gmp_sleep_until(int64_t deadline)
{
	if (getg() != NULL) {
		int r = gmp_kernelwait_sleep(deadline);
		if (r >= 0)
			return r;
	}
	struct g *gp = waiter();
	/* Park on an address nobody else waits on: only the timer (or
	 * gmp_semq_interrupt) wakes it. */
	const void *addr = &gp->timer;
	struct semroot *root = semroot(addr);
	bool parked = false;
	while (deadline < 0 || gmp_deadline_left(deadline) > 0) {
		getp_unlocked();
		lock(&root->lock);
		if (park_locked(root, addr, deadline, WAIT_SLEEP, ~0u) == EINTR)
			return EINTR;
		parked = true;
	}
	/* The kernel's sleep gives the CPU up even when it is over before it
	 * began (timer slack), and delivers the signals pending as it
	 * returns.  A loop of 1 us sleeps that never parked kept, at one P,
	 * the other threads off (under qemu, for minutes: gc_suspend_1p)
	 * and, at two, a signal sent to it waiting for good. */
	if (!parked) {
		gmp_preempt_point();
		gosched();
	}
	return 0;
}

bool gmp_semq_interrupt(struct g *gp, int code)
{
	/* As gmp_semq_timeout: the G may be requeued or woken under our
	 * feet, so check under the bucket lock where it is parked now. */
	for (;;) {
		const void *addr = __atomic_load_n(&gp->waitaddr, __ATOMIC_ACQUIRE);
		if (addr == NULL)
			return false;
		struct semroot *root = semroot(addr);
		lock(&root->lock);
		if (gp->waitaddr == addr) {
			waitq_remove(root, gp);
			gp->wakeup = code;
			unlock(&root->lock);
			return true;
		}
		unlock(&root->lock);
	}
}

bool gmp_wake_interrupted(struct g *gp, struct m *mp)
{
	if (!gmp_semq_interrupt(gp, EINTR))
		return false;
	gp->schedlink = NULL;
	gmp_ready_list(mp, gp);
	return true;
}

/* --- notify lists --- */

static inline int less(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

uint32_t gmp_notify_add(uint32_t *wait)
{
	return __atomic_fetch_add(wait, 1, __ATOMIC_ACQ_REL);
}

int gmp_notify_wait(const void *addr, uint32_t *notify, uint32_t ticket, int64_t deadline, uint32_t *condlock)
{
	struct semroot *root = semroot(addr);
	getp_unlocked();
	for (;;) {
		lock(&root->lock);
		if (less(ticket, __atomic_load_n(notify, __ATOMIC_ACQUIRE))) {
			unlock(&root->lock); /* already notified */
			return 0;
		}
		if (deadline >= 0 && gmp_deadline_left(deadline) <= 0) {
			unlock(&root->lock);
			return ETIMEDOUT;
		}
		struct g *gp = waiter();
		gp->ticket = ticket;
		gp->condlock = condlock;
		int r = park_locked(root, addr, deadline, WAIT_COND, ~0u);
		gp->condlock = NULL;
		/* A signal: its handler has run, and NPTL's wait goes on
		 * waiting for the same notification (glibc's condvar loops on
		 * EINTR).  A cancellation ends it: the wait is a cancellation
		 * point. */
		if (r != EINTR || gmp_cancel_due(gmp_cancel_word(gp)))
			return r == EINTR ? 0 : r;
	}
}

void gmp_notify_one(const void *addr, uint32_t *wait, uint32_t *notify)
{
	gmp_preempt_point();
	/* Fast path: nobody has taken a ticket since the last notification. */
	if (__atomic_load_n(wait, __ATOMIC_ACQUIRE) == __atomic_load_n(notify, __ATOMIC_ACQUIRE))
		return;
	struct semroot *root = semroot(addr);
	lock(&root->lock);
	uint32_t t = *notify;
	if (t == __atomic_load_n(wait, __ATOMIC_ACQUIRE)) {
		unlock(&root->lock);
		return;
	}
	__atomic_store_n(notify, t + 1, __ATOMIC_RELEASE);
	/* Wake the waiter holding ticket t.  If it is not queued, it either
	 * has not queued yet (it will see notify > t and not sleep) or it
	 * timed out; wake the oldest waiter then, so that a signal is never
	 * lost to a timed-out ticket (at worst the wake-up is spurious). */
	struct g *head = waitq_head(root, addr), *found = head;
	for (struct g *gp = head; gp; gp = gp->waitlink) {
		if (gp->ticket == t) {
			found = gp;
			break;
		}
	}
	/* Realtime waiters are queued highest first (waitq.c): the signal
	 * goes to the highest, as the kernel's futex wake-up picks it. */
	if (found && gmp_rt_active() && head->rtprio > found->rtprio)
		found = head;
	if (found)
		waitq_remove(root, found);
	unlock(&root->lock);
	if (found) {
		found->schedlink = NULL;
		gmp_semq_ready(gmp_morph(found));
		gmp_rt_preempt_point(); /* a realtime waiter above us runs now */
	}
}

void gmp_notify_all(const void *addr, uint32_t *wait, uint32_t *notify)
{
	gmp_preempt_point();
	if (__atomic_load_n(wait, __ATOMIC_ACQUIRE) == __atomic_load_n(notify, __ATOMIC_ACQUIRE))
		return;
	struct semroot *root = semroot(addr);
	lock(&root->lock);
	__atomic_store_n(notify, __atomic_load_n(wait, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	struct g *list = waitq_dequeue_all(root, addr);
	unlock(&root->lock);
	gmp_semq_ready(gmp_morph(list));
	gmp_rt_preempt_point();
}

void gmp_futex_handoff(uint32_t *w, uint32_t more, uint32_t last, uint32_t none)
{
	struct semroot *root = semroot(w);
	lock(&root->lock);
	struct g *gp = waitq_dequeue(root, w);
	uint32_t next = gp == NULL ? none : waitq_head(root, w) ? more : last;
	__atomic_store_n(w, next, __ATOMIC_RELEASE);
	if (gp)
		gp->wakeup = GMP_WAKE_HANDOFF;
	unlock(&root->lock);
	if (gp)
		goready(gp);
}

struct g *gmp_semq_collect(const void *addr, struct g *list)
{
	struct semroot *root = semroot(addr);
	lock(&root->lock);
	struct g *gp = waitq_dequeue_all(root, addr);
	unlock(&root->lock);
	while (gp) {
		struct g *next = gp->schedlink;
		gp->schedlink = list;
		list = gp;
		gp = next;
	}
	return list;
}
