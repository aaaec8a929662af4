/* Realtime scheduling policies acted upon, as far as a user-level
 * scheduler can (docs/design.md, Priorities).
 *
 * A G with SCHED_FIFO or SCHED_RR (or boosted by a PI/PP mutex) has an
 * rtprio above 0.  When it becomes runnable it goes on sched.rtrunq, one
 * queue for the whole process ordered by rtprio, which every schedule
 * looks at before anything else: the highest runnable realtime G runs
 * next wherever a P frees up, as the kernel gives a single-CPU system's
 * highest-priority thread the CPU.  It does not wait for a P to free up:
 * the P running the lowest-priority G below it is sent a preemption
 * request at once (preemptone, as sysmon's for a slice).  A running
 * realtime G yields only to an equal or higher one: sysmon never ends a
 * SCHED_FIFO G's slice, and ends a SCHED_RR one's only for an equal one
 * queued, which then runs first.
 *
 * Nothing here runs while no G is realtime: gmp_nrt counts them, and
 * every hook in the scheduler's and the wait queues' paths tests it
 * first (gmp_rt_active). */
#include <sched.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "globrunq.h"
#include "lock.h"
#include "preempt.h"
#include "proc.h"
#include "rtprio.h"
#include "runtime.h"
#include "sys.h"

/* Read on every schedule, yield and wake-up, written only when a G
 * turns realtime or back: it starts a cache line, which it shares only
 * with this file's other variables, written as seldom. */
uint32_t gmp_nrt __attribute__((aligned(64)));

void rtrunqput(struct g *gp, bool head)
{
	struct g **pp = &sched.rtrunq;
	while (*pp && (head ? (*pp)->rtprio > gp->rtprio : (*pp)->rtprio >= gp->rtprio))
		pp = &(*pp)->schedlink;
	gp->schedlink = *pp;
	*pp = gp;
	gp->onrtq = true;
	__atomic_store_n(&sched.rtrunqsize, sched.rtrunqsize + 1, __ATOMIC_RELEASE);
}

struct g *rtrunqget(void)
{
	struct g *gp = sched.rtrunq;
	if (gp == NULL)
		return NULL;
	sched.rtrunq = gp->schedlink;
	gp->schedlink = NULL;
	gp->onrtq = false;
	__atomic_store_n(&sched.rtrunqsize, sched.rtrunqsize - 1, __ATOMIC_RELEASE);
	return gp;
}

static void rtrunqremove(struct g *gp)
{
	for (struct g **pp = &sched.rtrunq; *pp; pp = &(*pp)->schedlink) {
		if (*pp == gp) {
			*pp = gp->schedlink;
			gp->schedlink = NULL;
			gp->onrtq = false;
			__atomic_store_n(&sched.rtrunqsize, sched.rtrunqsize - 1, __ATOMIC_RELEASE);
			return;
		}
	}
}

/* The priority of the G running on pp, -1 for none (racy: a hint). */
static int running_prio(struct p *pp)
{
	if (__atomic_load_n(&pp->status, __ATOMIC_ACQUIRE) != P_RUNNING)
		return -1;
	struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	struct g *gp = mp ? __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) : NULL;
	return gp ? __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED) : -1;
}

/* A realtime G of priority prio was queued: an idle P takes it, else the
 * P running the lowest-priority G below it is preempted (Go has no such
 * thing; the kernel's check_preempt_curr does this for a CPU). */
static void kick(struct m *self, int prio)
{
	if (__atomic_load_n(&sched.npidle, __ATOMIC_ACQUIRE) > 0) {
		wakep();
		return;
	}
	struct p *victim = NULL;
	int low = prio;
	struct p *own = self && self->curg ? self->p : NULL;
	/* Our own P first: its G is marked, not signalled, and yields at its
	 * next preemption point, which is the end of the call that readied. */
	if (own && running_prio(own) >= 0 && running_prio(own) < low) {
		victim = own;
		low = running_prio(own);
	}
	for (int i = 0; i < sched.gomaxprocs; i++) {
		struct p *pp = &allp[i];
		int r = running_prio(pp);
		if (pp != own && r >= 0 && r < low) {
			victim = pp;
			low = r;
		}
	}
	if (victim == NULL)
		return;
	if (victim == own)
		__atomic_store_n(&self->curg->preempt, 1, __ATOMIC_RELEASE);
	else
		preemptone(victim);
}

void gmp_rt_ready(struct m *mp, struct g *gp)
{
	int prio = gp->rtprio;
	lock(&sched.lock);
	rtrunqput(gp, false);
	unlock(&sched.lock);
	kick(mp, prio);
}

static int top_queued(void)
{
	struct g *gp = __atomic_load_n(&sched.rtrunq, __ATOMIC_ACQUIRE);
	return gp ? __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED) : 0;
}

enum rtyield gmp_rt_yieldhow(struct g *gp, bool yield)
{
	lock(&sched.lock);
	int top = top_queued();
	unlock(&sched.lock);
	int prio = gp->rtprio;
	if (top > prio)
		return RT_HEAD;
	if (top == prio && (yield || (gp->sched_policy & ~SCHED_RESET_ON_FORK) == SCHED_RR))
		return RT_TAIL;
	return RT_STAY;
}

bool gmp_rt_slice_preempt(struct p *pp)
{
	if (!gmp_rt_active())
		return true;
	struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	struct g *gp = mp ? __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) : NULL;
	if (gp == NULL || __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED) == 0)
		return true;
	/* Unlocked: sysmon's look is a hint, and the G decides again. */
	int top = top_queued(), prio = gp->rtprio;
	return top > prio || (top == prio && (gp->sched_policy & ~SCHED_RESET_ON_FORK) == SCHED_RR);
}

static int base_prio(const struct g *gp)
{
	int policy = gp->sched_policy & ~SCHED_RESET_ON_FORK;
	return policy == SCHED_FIFO || policy == SCHED_RR ? gp->sched_priority : 0;
}

/* GMPDEBUG=rtprio=0 turns all of it off: the tests' proof that they
 * see the difference. */
static int want_prio(const struct g *gp)
{
	if (gmp_debug.nortprio)
		return 0;
	int r = base_prio(gp);
	if (gp->piboost > r)
		r = gp->piboost;
	if (gp->ppboost > r)
		r = gp->ppboost;
	return r;
}

void gmp_rt_update(struct g *gp)
{
	int r = want_prio(gp);
	if (r == __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED))
		return;
	lock(&sched.lock);
	int old = gp->rtprio;
	__atomic_store_n(&gp->rtprio, r, __ATOMIC_RELAXED);
	if ((old > 0) != (r > 0))
		__atomic_add_fetch(&gmp_nrt, r > 0 ? 1u : -1u, __ATOMIC_ACQ_REL);
	/* A runnable G moves to its new place: within the realtime queue,
	 * between it and the global queue.  One in a P's local ring stays
	 * there until that P runs it. */
	bool queued = false;
	if (gp->onrtq) {
		rtrunqremove(gp);
		if (r > 0) {
			rtrunqput(gp, false);
			queued = true;
		} else {
			globrunqput(gp);
		}
	} else if (r > 0 && __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_RUNNABLE && globrunqremove(gp)) {
		rtrunqput(gp, false);
		queued = true;
	}
	unlock(&sched.lock);
	struct g *self = getg();
	if (queued && r > old)
		kick(self ? self->m : NULL, r);
	if (gp == self && r < old && top_queued() > r)
		__atomic_store_n(&gp->preempt, 1, __ATOMIC_RELEASE);
}

void gmp_rt_newg(struct g *gp)
{
	gp->rtprio = gp->piboost = gp->ppboost = 0;
	gp->piheld = 0;
	gp->onrtq = false;
	int r = want_prio(gp);
	if (r > 0) {
		gp->rtprio = r;
		__atomic_add_fetch(&gmp_nrt, 1, __ATOMIC_ACQ_REL);
	}
}

void gmp_rt_exit(struct g *gp)
{
	gp->piboost = gp->ppboost = 0;
	gp->piheld = 0;
	if (__atomic_exchange_n(&gp->rtprio, 0, __ATOMIC_RELAXED) > 0)
		__atomic_sub_fetch(&gmp_nrt, 1, __ATOMIC_ACQ_REL);
}

void gmp_rt_fork_child(struct g *self)
{
	sched.rtrunq = NULL;
	sched.rtrunqsize = 0;
	gmp_nrt = self->rtprio > 0;
}

/* --- priority protocols --- */

void gmp_rt_pi_boost(struct g *owner, struct g *waiter)
{
	int prio = __atomic_load_n(&waiter->rtprio, __ATOMIC_RELAXED);
	if (owner == NULL || owner == waiter || prio == 0 || __atomic_load_n(&owner->piheld, __ATOMIC_ACQUIRE) == 0)
		return;
	int cur = __atomic_load_n(&owner->piboost, __ATOMIC_RELAXED);
	while (cur < prio && !__atomic_compare_exchange_n(&owner->piboost, &cur, prio, 0, __ATOMIC_ACQ_REL,
							 __ATOMIC_RELAXED))
		;
	if (cur < prio)
		gmp_rt_update(owner);
}

void gmp_rt_pi_acquired(struct g *gp)
{
	__atomic_add_fetch(&gp->piheld, 1, __ATOMIC_ACQ_REL);
}

/* The boost ends when the G holds no PI mutex any more: the waiters of
 * one it still holds boost it again when they next park. */
void gmp_rt_pi_released(struct g *gp)
{
	if (__atomic_sub_fetch(&gp->piheld, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (__atomic_exchange_n(&gp->piboost, 0, __ATOMIC_ACQ_REL) != 0)
		gmp_rt_update(gp);
}

int gmp_rt_pp_acquired(struct g *gp, int ceiling)
{
	int saved = gp->ppboost;
	if (ceiling > saved) {
		gp->ppboost = ceiling;
		gmp_rt_update(gp);
	}
	return saved;
}

void gmp_rt_pp_released(struct g *gp, int saved)
{
	if (gp->ppboost == saved)
		return;
	gp->ppboost = saved;
	gmp_rt_update(gp);
}

/* --- the kernel's policy of the Ms --- */

bool gmp_rt_kset;
static int kpolicy, kprio;
static bool korig_read;
static int korig_policy, korig_prio;

static void set_tid(int tid, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	gmp_syscall(SYS_sched_setscheduler, tid, policy, &sp);
}

static void set_all(int policy, int prio)
{
	for (struct m *mp = __atomic_load_n(&gmp_allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink)
		if (!mp->gone && mp->tid > 0)
			set_tid(mp->tid, policy, prio);
}

void gmp_rt_kernel_apply(struct g *gp)
{
	if (gmp_debug.nortprio || __atomic_load_n(&sched.ngs, __ATOMIC_ACQUIRE) != 1)
		return;
	if (!korig_read) {
		struct sched_param sp = { 0 };
		long pol = gmp_syscall(SYS_sched_getscheduler, 0, 0, 0);
		gmp_syscall(SYS_sched_getparam, 0, &sp, 0);
		korig_policy = pol < 0 ? SCHED_OTHER : (int)pol;
		korig_prio = sp.sched_priority;
		korig_read = true;
	}
	kpolicy = gp->sched_policy;
	kprio = gp->sched_priority;
	__atomic_store_n(&gmp_rt_kset, true, __ATOMIC_RELEASE);
	set_all(kpolicy, kprio);
}

void gmp_rt_kernel_mstart(void)
{
	if (__atomic_load_n(&gmp_rt_kset, __ATOMIC_ACQUIRE))
		set_tid(0, kpolicy, kprio);
}

void gmp_rt_kernel_threads(void)
{
	if (!__atomic_exchange_n(&gmp_rt_kset, false, __ATOMIC_ACQ_REL))
		return;
	set_all(korig_policy & ~SCHED_RESET_ON_FORK, korig_prio);
}
