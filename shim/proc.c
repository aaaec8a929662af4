/* The scheduler: schedule, findrunnable, execute, stealing, spinning Ms,
 * park/ready.  The structure follows Go's runtime/proc.go; comments say
 * where and why this port differs.
 *
 * Invariants of the whole runtime (each function in proc.h and the other
 * module headers states which of these it relies on):
 *
 * Ownership.  An M runs Gs only while it holds a P (m->p, p->m).  A G in
 * G_RUNNING is on exactly one M (g->m, m->curg); a G in G_RUNNABLE is on
 * exactly one run queue (a P's ring or runnext, the global queue, or the
 * realtime queue: a G with rtprio > 0 is readied onto that one); a G
 * in G_WAITING is on at most one wait queue (sema.c, keyed by address) and
 * whoever takes it off readies it; a G in G_SYSCALL has no P of its own
 * except the oldp its M may still take back.  Status changes go through
 * casgstatus, which throws on an unexpected old status.
 *
 * A P taken from a sleeping M (rescue.c).  sysmon may take the P of an M
 * asleep in a call the shim never saw, without the M knowing until it next
 * enters the runtime.  So every use of a P by its own G starts with
 * gmp_checkp (gmp_getp does it), and the runtime never keeps its P's state
 * in hand across a call into libc that may sleep.
 *
 * Run queues (runq.c).  Only the M that owns a P writes its runqtail and
 * runnext; thieves and the owner advance runqhead with a CAS.  The global
 * queue, the realtime queue, the idle P list and the idle M list are
 * guarded by sched.lock.  Every schedule looks at the realtime queue first
 * (rtprio.c), and only while some G is realtime (gmp_nrt).
 *
 * Spinning (proc.go's protocol).  sched.nmspinning counts Ms looking for
 * work while holding a P; at most half the busy Ps spin.  An M that stops
 * spinning re-checks every run queue after decrementing nmspinning; whoever
 * makes work runnable calls wakep, which starts a spinner only if none is
 * spinning and a P is idle.  Together they make sure runnable work is
 * never left with every M asleep.
 *
 * g0.  Scheduler code runs on the M's own stack; g0_getm() finds the M
 * from the stack pointer, never from TLS (the FS base on g0 is whatever G
 * ran last).  A G switches to g0 only through mcall, and what it asked for
 * (park_m, gosched_m, goexit0) runs there after its context is saved, so a
 * waker can never resume a G that is still on its stack.
 *
 * Lock order (a lock may be taken while holding those before it, never
 * the other way round):
 *     a descriptor's waiter lock (netpoll.h: pd->wlock)
 *     -> a wait-queue bucket (sema.c, waitq.c)
 *     -> a P's timer lock (timer.c)
 *     -> sched.lock -> sched.gflock
 * The registry lock, the new-M lock and the runtime-fd lock (rtfd.c, taken
 * inside the netpoller's init lock) nest inside any of these and take
 * none; the robust-mutex list lock and the signal trampoline's lock are
 * taken alone.  Runtime locks block the M (lock.c): they are held for a
 * few instructions, never across a park, a system call or a call into
 * libc.  fork.c takes every one of them, in this order, before fork.
 * (The runtime-fd lock is taken after the init lock and reset in the
 * child before it.)  Before all of them it closes the template thread's
 * spawn gate (mstart.c), and waits for any thread it is making. */
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch.h"
#include "compat/debug.h"
#include "counters.h"
#include "cpuclock.h"
#include "foreign.h"
#include "fork.h"
#include "globrunq.h"
#include "gsignal.h"
#include "insight.h"
#include "lock.h"
#include "mstart.h"
#include "netpoll.h"
#include "preempt.h"
#include "proc.h"
#include "runq.h"
#include "rtprio.h"
#include "runtime.h"
#include "sanitizer.h"
#include "syscall.h"
#include "sysmon.h"
#include "thread.h"
#include "timer.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define atomic_add(p, v) __atomic_add_fetch((p), (v), __ATOMIC_ACQ_REL)

static const char *const gstatus_names[] = { "idle", "runnable", "running", "syscall", "waiting", "dead" };

void casgstatus(struct g *gp, uint32_t oldval, uint32_t newval)
{
	uint32_t cur = oldval;
	if (__atomic_compare_exchange_n(&gp->status, &cur, newval, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	gmp_printf("gmpshim: G %llu: status %s, want %s -> %s\n", (unsigned long long)gp->goid,
		   cur < 6 ? gstatus_names[cur] : "?", gstatus_names[oldval], gstatus_names[newval]);
	gmp_throw("bad G status transition");
}

/* --- Ps and Ms: sched.lock held for the list operations --- */

/* mp holds no P; pp is idle and off the idle list. */
void acquirep(struct m *mp, struct p *pp)
{
	if (pp->m != NULL || pp->status != P_IDLE)
		gmp_throw("acquirep: P in use");
	mp->p = pp;
	pp->m = mp;
	__atomic_store_n(&pp->status, P_RUNNING, __ATOMIC_RELEASE);
	/* sysmon sleeps while every P is idle; a busy P needs watching.  The
	 * other half of sysmon_idle's Dekker pair: npidle's decrement must
	 * be visible before sysmonwait is read, which a release and a later
	 * acquire do not promise (C11: only a full fence, or seq_cst on both
	 * sides, does). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(load_acq(&sched.sysmonwait), 0))
		gmp_sysmon_wake();
}

static struct p *releasep(struct m *mp)
{
	struct p *pp = mp->p;
	if (pp == NULL || pp->m != mp || pp->status != P_RUNNING)
		gmp_throw("releasep: invalid P state");
	mp->p = NULL;
	pp->m = NULL;
	__atomic_store_n(&pp->status, P_IDLE, __ATOMIC_RELEASE);
	return pp;
}

void pidleput(struct p *pp)
{
	if (!runqempty(pp))
		gmp_throw("pidleput: P has a non-empty run queue");
	pp->link = sched.pidle;
	sched.pidle = pp;
	atomic_add(&sched.npidle, 1);
}

struct p *pidleget(void)
{
	struct p *pp = sched.pidle;
	if (pp) {
		sched.pidle = pp->link;
		atomic_add(&sched.npidle, -1);
	}
	return pp;
}

void mput(struct m *mp)
{
	mp->schedlink = sched.midle;
	sched.midle = mp;
	sched.nmidle++;
}

static struct m *mget(void)
{
	struct m *mp = sched.midle;
	if (mp) {
		sched.midle = mp->schedlink;
		sched.nmidle--;
	}
	return mp;
}

bool acquireidlep(struct m *mp)
{
	lock(&sched.lock);
	struct p *pp = pidleget();
	unlock(&sched.lock);
	if (pp)
		acquirep(mp, pp);
	return pp != NULL;
}

/* Removes mp from the idle list if it is still there.  sched.lock held. */
static bool munlink_idle(struct m *mp)
{
	for (struct m **pp = &sched.midle; *pp; pp = &(*pp)->schedlink) {
		if (*pp == mp) {
			*pp = mp->schedlink;
			sched.nmidle--;
			return true;
		}
	}
	return false;
}

/* Starts an M to run pp (an idle P if NULL).  With spinning, the caller
 * already counted the new M in nmspinning. */
void startm(struct p *pp, bool spinning)
{
	lock(&sched.lock);
	if (pp == NULL) {
		pp = pidleget();
		if (pp == NULL) {
			unlock(&sched.lock);
			if (spinning)
				atomic_add(&sched.nmspinning, -1);
			return;
		}
	}
	struct m *nmp = mget();
	unlock(&sched.lock);
	if (nmp == NULL) {
		newm(pp, spinning);
		return;
	}
	nmp->spinning = spinning;
	nmp->nextp = pp;
	notewakeup(&nmp->park);
}

/* Tries to add one more spinning M when there is an idle P and nobody is
 * spinning already: the spinner either finds the new work or parks. */
void wakep(void)
{
	if (load_acq(&sched.npidle) == 0 || load_acq(&sched.nmspinning) != 0)
		return;
	uint32_t zero = 0;
	if (!__atomic_compare_exchange_n(&sched.nmspinning, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	startm(NULL, true);
}

static void resetspinning(struct m *mp)
{
	mp->spinning = false;
	if ((int32_t)atomic_add(&sched.nmspinning, -1) < 0)
		gmp_throw("resetspinning: negative nmspinning");
	/* The spinning M found work; there may be more, so wake another. */
	wakep();
}

/* Parks the M until startm hands it a P or until the deadline (ns,
 * monotonic; -1 = none).  Returns false if it timed out without a P. */
/* An M about to sleep without a G (stopm, stoplockedm) sleeps on its own
 * TCB: a signal handler that runs on it must not use the TLS of a G that
 * may be running on another M.  And with the mask of an M without a G. */
static void m_sleep_own(struct m *mp)
{
	if (mp->curfs != mp->owntcb) {
		gmp_arch_setfs(mp->owntcb);
		mp->curfs = mp->owntcb;
	}
	gmp_sigmask_idle(mp);
	gmp_cpuclock_sleep(mp);
}

/* Woken with a P handed over in nextp: takes it. */
static void m_take_nextp(struct m *mp)
{
	gmp_cpuclock_wake(mp, 0);
	noteclear(&mp->park);
	acquirep(mp, mp->nextp);
	mp->nextp = NULL;
}

bool stopm(struct m *mp, int64_t deadline)
{
	lock(&sched.lock);
	mput(mp);
	unlock(&sched.lock);
	m_sleep_own(mp);
	int64_t ns = -1;
	if (deadline >= 0) {
		ns = deadline - gmp_nanotime();
		if (ns < 0)
			ns = 0;
	}
	if (!notetsleep(&mp->park, ns)) {
		lock(&sched.lock);
		bool unlinked = munlink_idle(mp);
		unlock(&sched.lock);
		if (unlinked) {
			gmp_cpuclock_wake(mp, 0);
			return false;
		}
		notesleep(&mp->park); /* a startm picked us just now */
	}
	m_take_nextp(mp);
	return true;
}

/* --- readying and parking --- */

/* gp, about to be queued, was waiting for something, not preempted.  The
 * kernel would let a thread it wakes preempt a running one soon; here, if
 * no P is idle, it may wait for a whole slice behind Gs that never block
 * (threads that busy-wait for each other), so sysmon cuts the slices of
 * the running Gs short while it waits (sysmon.c, wake-up preemption).
 * count: the queuing M's P's wokeput, or sched.wokeput under sched.lock. */
void gmp_markwoke(struct g *gp, uint32_t *count)
{
	if (load_acq(&sched.npidle) != 0 || gmp_wakeslice_ns == 0)
		return;
	gp->woke = true;
	__atomic_store_n(count, *count + 1, __ATOMIC_RELEASE);
	gmp_sysmon_hurry(HURRY_WOKEN);
}

/* Makes gp runnable on mp's P (or globally if mp holds none), to run next. */
static void ready_on(struct m *mp, struct g *gp, bool wake)
{
	if (__builtin_expect(gp->flags & G_FOREIGN, 0)) {
		gmp_foreign_ready(gp); /* it blocks its own thread: no run queue */
		return;
	}
	if (mp->curg)
		gmp_checkp(mp);
	casgstatus(gp, G_WAITING, G_RUNNABLE);
	if (gmp_rt_active() && gp->rtprio) {
		gmp_rt_ready(mp, gp);
		return;
	}
	if (mp->p) {
		gmp_markwoke(gp, &mp->p->wokeput);
		runqput(mp->p, gp, true);
	} else {
		lock(&sched.lock);
		gmp_markwoke(gp, &sched.wokeput);
		globrunqput(gp);
		unlock(&sched.lock);
	}
	if (wake)
		wakep();
}

void goready(struct g *gp)
{
	struct g *self = getg();
	if (self == NULL) {
		/* A waker that is no G (a foreign thread unlocking a mutex in
		 * starvation mode): no P of its own to put gp on. */
		gp->schedlink = NULL;
		injectglist(gp);
		return;
	}
	ready_on(self->m, gp, true);
}

/* Takes the Gs of all off their wait: a foreign G is readied on its own
 * thread and a realtime one on the realtime queue; the rest, now
 * runnable, are left in *list..*tail.  Returns how many. */
static int inject_prepare(struct g *all, struct g **list, struct g **tail)
{
	int n = 0;
	*list = *tail = NULL;
	while (all) {
		struct g *gp = all;
		all = gp->schedlink; /* read first: a foreign G may be gone once woken */
		if (gp->flags & G_FOREIGN) {
			gmp_foreign_ready(gp);
			continue;
		}
		casgstatus(gp, G_WAITING, G_RUNNABLE);
		gp->schedlink = NULL;
		if (gmp_rt_active() && gp->rtprio) {
			gmp_rt_ready(NULL, gp);
			continue;
		}
		if (*tail)
			(*tail)->schedlink = gp;
		else
			*list = gp;
		*tail = gp;
		n++;
	}
	return n;
}

/* Puts the first n Gs of list on the global queue; returns the rest. */
static struct g *globrunqput_first(struct g *list, int n)
{
	struct g *tail = list;
	for (int i = 1; i < n; i++)
		tail = tail->schedlink;
	struct g *rest = tail->schedlink;
	tail->schedlink = NULL;
	lock(&sched.lock);
	for (struct g *gp = list; gp; gp = gp->schedlink)
		gmp_markwoke(gp, &sched.wokeput);
	globrunqputbatch(list, tail, n);
	unlock(&sched.lock);
	return rest;
}

/* Puts a list of Gs readied off-P (timers) on the global queue and starts
 * Ms for idle Ps to run them (proc.go: injectglist without a P). */
void injectglist(struct g *all)
{
	struct g *list, *tail;
	int n = inject_prepare(all, &list, &tail);
	if (n == 0)
		return;
	globrunqput_first(list, n);
	for (int i = 0; i < n && load_acq(&sched.npidle) > 0; i++)
		startm(NULL, false);
}

/* How long a G readied by a poll may wait on the poller's P for that
 * P's M, while another P is idle, rather than have an M woken for it.
 * Waking an idle M wakes a thread asleep in the kernel, on another CPU:
 * on the 2-CPU VM it cost the two threads more CPU than the echo
 * server's request it was woken for (docs/design.md, "Waking an M for a
 * polled G"). */
#define WAKE_DEFER_NS 50000

/* Moves the first n Gs of *list to pp's queue. */
static void runqput_first(struct p *pp, struct g **list, int n)
{
	for (int i = 0; i < n; i++) {
		struct g *gp = *list;
		*list = gp->schedlink;
		gp->schedlink = NULL;
		gmp_markwoke(gp, &pp->wokeput);
		runqput(pp, gp, false);
	}
}

/* injectglist from the M that holds pp and has just polled (now: when
 * it returned), first the G it runs next (proc.go: injectglist with a P).
 * Go puts one G per idle P on the global queue and starts an M for each,
 * the rest on pp's queue.  Here the Gs this M will reach itself within
 * WAKE_DEFER_NS stay on pp's queue first, without waking anybody, going
 * by how long each G ahead of them held its P the last times a poll
 * readied it (g->pollheld; a G never timed ends the count): a
 * thread-per-connection server's requests take a few microseconds each,
 * and an M woken per poll cost it a third more CPU per request than one
 * M working through the batch, while a thread that busy-waits for
 * another (redis's I/O threads) holds its P for a slice and nothing waits
 * behind it.  If this M has not reached them when due (a G ran longer
 * than it used to), the next schedule on pp or sysmon wakes an M
 * (wake_if_due), and entersyscall does at once. */
static void injectglist_p(struct p *pp, struct g *first, struct g *all, int64_t now)
{
	struct g *list, *tail;
	int n = inject_prepare(all, &list, &tail);
	if (n == 0)
		return;
	int nidle = (int)load_acq(&sched.npidle);
	int keep = 0;
	if (nidle > 0) {
		int64_t ahead = first->pollheld;
		for (struct g *gp = list; gp && ahead > 0 && ahead < WAKE_DEFER_NS; gp = gp->schedlink) {
			keep++;
			ahead = gp->pollheld > 0 ? ahead + gp->pollheld : 0;
		}
	}
	runqput_first(pp, &list, keep);
	int nglob = nidle < n - keep ? nidle : n - keep;
	if (nglob > 0) {
		list = globrunqput_first(list, nglob);
		for (int i = 0; i < nglob; i++)
			startm(NULL, false);
	}
	runqput_first(pp, &list, n - keep - nglob);
	pp->ctr.pollkeeps += (uint64_t)keep;
	if (keep > 0 && nglob == 0) {
		if (load_acq(&pp->wakedue) == 0)
			__atomic_store_n(&pp->wakedue, now + WAKE_DEFER_NS, __ATOMIC_RELEASE);
		return;
	}
	/* A P gone idle since npidle was read would otherwise wait for the
	 * next G readied to look at these. */
	wakep();
}

/* Gs kept on pp for its own M (injectglist_p) that it has not reached
 * by their due time get an M woken for them; none left, none due.  Run
 * by pp's M at each schedule, and by sysmon for a G that keeps it. */
bool wake_if_due(struct p *pp, int64_t now)
{
	int64_t due = load_acq(&pp->wakedue);
	if (due == 0)
		return false;
	if (runqempty(pp) || now >= due) {
		if (!__atomic_compare_exchange_n(&pp->wakedue, &due, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return false;
		if (now >= due && !runqempty(pp)) {
			wakep();
			return true;
		}
	}
	return false;
}

static void park_m(struct g *gp, void *argp);

/* Switches from the running G to its M's g0, which then runs fn(gp, arg)
 * once gp's context is saved (Go's mcall). */
void mcall(void (*fn)(struct g *, void *), void *arg)
{
	struct g *gp = getg();
	struct m *mp = gp->m;
	if (__builtin_expect(gp->inhandler != 0, 0))
		gmp_sig_switch_in_handler(gp);
	mp->after_switch = fn;
	mp->after_arg = arg;
	gmp_san_before_switch(&gp->asan_fake, (char *)mp + 2 * 4096, M_REGION_SIZE - 2 * 4096);
	gmp_swap(&gp->sched_sp, mp->g0_sp);
	gmp_san_after_switch(gp->asan_fake);
	/* Resumed, possibly on another M.  Signals sent to the thread
	 * meanwhile are raised here, on its own stack; after a park, by the
	 * parker once it has read the wait's outcome (park_locked): a
	 * handler that waits itself reuses the G's wait fields. */
	if (__builtin_expect(gp->sigpending != 0, 0) && fn != park_m)
		gmp_sig_deliver_pending();
}

struct parkargs {
	void (*unlockf)(struct g *, void *);
	void *arg;
};

/* Detaches the G that just switched out from its M (proc.go: dropg). */
static void dropg(struct m *mp, struct g *gp)
{
	mp->curg = NULL;
	gp->m = NULL;
}

static void park_m(struct g *gp, void *argp)
{
	struct parkargs *pa = argp; /* lives on gp's stack, which is saved */
	struct m *mp = gp->m;
	casgstatus(gp, G_RUNNING, G_WAITING);
	dropg(mp, gp);
	if (pa->unlockf)
		pa->unlockf(gp, pa->arg);
	gmp_sig_parked(mp, gp);
}

/* Parks the running G.  unlockf runs on g0 after the G is saved: it
 * releases whatever lock made the decision to sleep, so a waker that takes
 * the same lock can only ready a G that is already fully switched out. */
void gopark(void (*unlockf)(struct g *, void *), void *arg, enum waitreason reason)
{
	struct g *gp = getg();
	gmp_fork_helpers();
	gmp_getp();
	struct parkargs pa = { unlockf, arg };
	gp->waitreason = reason;
	gmp_note_park(gp, gp->m->p, reason);
	mcall(park_m, &pa);
	gp->m->p->ctr.unpark[reason % GMP_NWAITREASON]++;
	gp->waitreason = WAIT_NONE;
}

/* A G was queued that no idle P will take: sysmon, which may be backing
 * off because none waited, must time the running Gs' slices again. */
static void hurry_if_busy(void)
{
	if (load_acq(&sched.npidle) == 0)
		gmp_sysmon_hurry(HURRY_QUEUED);
}

void gosched_m(struct g *gp, void *arg)
{
	casgstatus(gp, G_RUNNING, G_RUNNABLE);
	dropg(gp->m, gp);
	lock(&sched.lock);
	if (gmp_rt_active() && gp->rtprio)
		rtrunqput(gp, arg == GOSCHED_HEAD);
	else
		globrunqput(gp);
	unlock(&sched.lock);
	hurry_if_busy();
}

bool gmp_gs_behind(struct p *pp)
{
	return !runqempty(pp) || load_acq(&sched.runqsize) != 0 || gmp_rt_queued();
}

/* Nothing else to run anywhere, and no timer due: yielding would only
 * cost a trip through the scheduler. */
bool gmp_nothing_else(struct p *pp)
{
	if (gmp_gs_behind(pp))
		return false;
	int64_t next = gmp_timers_next();
	return next < 0 || next > gmp_nanotime();
}

bool gosched_rt(struct g *gp, bool yield, void **how)
{
	enum rtyield y = gmp_rt_yieldhow(gp, yield);
	*how = y == RT_HEAD ? GOSCHED_HEAD : NULL;
	return y != RT_STAY;
}

/* sched_yield: the G goes to the back of the global queue (Go's Gosched). */
void gosched(void)
{
	struct p *pp = gmp_getp();
	/* A realtime G yields only to one of its own priority or above
	 * (sched_yield(2)): a lower one, or SCHED_OTHER, waits. */
	if (gmp_rt_active() && getg()->rtprio) {
		void *how;
		if (gosched_rt(getg(), true, &how))
			mcall(gosched_m, how);
		return;
	}
	if (!gmp_nothing_else(pp))
		mcall(gosched_m, NULL);
}

static void forkm_letgo(struct g *gp);

/* gp and the M it is locked to part (gmp_unlockosthread, below; its exit;
 * a fork child, where both are the only ones left). */
static void unlockg(struct g *gp)
{
	if (gp->lockedm)
		gp->lockedm->lockedg = NULL;
	gp->lockedm = NULL;
	gp->lockreasons = 0;
}

static void goexit0(struct g *gp, void *arg)
{
	struct m *mp = gp->m;
	casgstatus(gp, G_RUNNING, G_DEAD);
	dropg(mp, gp);
	/* A locked G's M goes back to running any G: what the kernel keeps
	 * for that thread (a tracee, a child's parent) stays with the M. */
	unlockg(gp);
	gp->nchildren = 0;
	forkm_letgo(gp);
	/* The thread is gone, and so is its mask: a signal only it took must
	 * not land on this M once a join has seen it gone. */
	gmp_sigmask_idle(mp);
	gmp_cpuclock_exit(gp);
	gmp_exit_reap(mp, gp);
}

void goexit(void)
{
	gmp_getp();
	mcall(goexit0, NULL);
	gmp_throw("goexit: dead G resumed");
}

/* Queues a new G (status G_IDLE, context ready) to run next on this P. */
void newproc(struct g *gp)
{
	struct p *pp = gmp_getp();
	pp->ctr.gcreated++;
	casgstatus(gp, G_IDLE, G_RUNNABLE);
	if (gmp_rt_active() && gp->rtprio) {
		gmp_rt_ready(getg()->m, gp);
		return;
	}
	runqput(pp, gp, true);
	hurry_if_busy();
	wakep();
}

/* --- finding work --- */

#define STEAL_TRIES 4

static struct g *stealwork(struct m *mp, struct p *pp)
{
	int n = sched.gomaxprocs;
	for (int i = 0; i < STEAL_TRIES; i++) {
		bool last = i == STEAL_TRIES - 1;
		/* Random start, coprime stride would be Go's; a random start with
		 * a linear walk visits every P once per round as well. */
		uint32_t start = fastrandn(mp, (uint32_t)n);
		for (int k = 0; k < n; k++) {
			struct p *p2 = &allp[(start + (uint32_t)k) % (uint32_t)n];
			if (p2 == pp)
				continue;
			if (load_acq(&p2->status) == P_IDLE && load_acq(&p2->runnext) == NULL)
				continue;
			struct g *gp = runqsteal(pp, p2, last);
			if (gp) {
				pp->ctr.steals++;
				return gp;
			}
		}
	}
	return NULL;
}

/* Some other P has queued Gs a thief could take.  A hint: the queues
 * move meanwhile. */
static bool stealable(struct p *pp)
{
	for (int i = 0; i < sched.gomaxprocs; i++)
		if (&allp[i] != pp && !runqempty(&allp[i]))
			return true;
	return false;
}

static void run_timers(struct m *mp);
static void ready_list(struct m *mp, struct g *list, bool runsnext);
static void checktimers(struct m *mp);

/* Runs the first G the poller readied here and queues the rest. */
static struct g *netpoll_pick(struct g *list)
{
	struct g *gp = list;
	struct m *mp = g0_getm();
	struct p *pp = mp->p;
	pp->ctr.netpollwakes += (uint64_t)gmp_glist_len(list);
	/* Timed until it switches out (execute) or gives up the P for a
	 * wait in the kernel: injectglist_p's estimate. */
	mp->polledwhen = gmp_nanotime();
	injectglist_p(pp, gp, gp->schedlink, mp->polledwhen);
	gp->schedlink = NULL;
	casgstatus(gp, G_WAITING, G_RUNNABLE);
	return gp;
}

/* The highest-priority runnable realtime G, if any (rtprio.c). */
static inline struct g *rtget(void)
{
	if (!gmp_rt_queued())
		return NULL;
	lock(&sched.lock);
	struct g *gp = rtrunqget();
	unlock(&sched.lock);
	return gp;
}

/* Finds a runnable G, blocking the M if there is none (proc.go:
 * findRunnable): local queue, global queue, timers, stealing as a spinning
 * M, then give up the P and sleep. */
static struct g *findrunnable(struct m *mp, bool *inherit)
{
	struct g *gp;
top:
	run_timers(mp);
	struct p *pp = mp->p;
	if ((gp = rtget()))
		return gp;
	if ((gp = runqget(pp, inherit)))
		return gp;
	*inherit = false;
	if (load_acq(&sched.runqsize) > 0) {
		lock(&sched.lock);
		gp = globrunqget(pp, 0);
		unlock(&sched.lock);
		if (gp)
			return gp;
	}
	/* The network before stealing, so that stolen work does not keep
	 * readied Gs waiting while nobody polls.  Only when there is
	 * something to steal: otherwise this M is on its way to the blocking
	 * poll below, which returns at once with the same events, and the
	 * non-blocking one mostly finds none (proc.go polls in both places;
	 * a thread-per-connection echo server at 20,000 requests/s made a
	 * quarter of a non-blocking poll per request, four in five empty). */
	if (gmp_netpoll_waiters() > 0 && load_acq(&sched.lastpoll) != 0 && stealable(pp)) {
		struct g *list = gmp_netpoll(0);
		if (list)
			return netpoll_pick(list);
	}
	/* Limit spinning Ms to half the busy Ps: past that, spinning burns
	 * CPU for work that the spinners already there will find. */
	int procs = sched.gomaxprocs;
	if (mp->spinning || 2 * (int)load_acq(&sched.nmspinning) < procs - (int)load_acq(&sched.npidle)) {
		if (!mp->spinning) {
			mp->spinning = true;
			atomic_add(&sched.nmspinning, 1);
		}
		if ((gp = stealwork(mp, pp)))
			return gp;
	}
	/* Due timers of other Ps: an idle P has nobody to run them, and a P
	 * held in a syscall or by a long-running G runs them late (proc.go:
	 * stealWork's checkTimers). */
	{
		struct g *list = gmp_timers_collect_all(pp, gmp_nanotime(), 0);
		if (list) {
			ready_list(mp, list, true);
			goto top;
		}
	}

	lock(&sched.lock);
	if (sched.rtrunqsize > 0) {
		gp = rtrunqget();
		unlock(&sched.lock);
		return gp;
	}
	if (sched.runqsize > 0) {
		gp = globrunqget(pp, 0);
		unlock(&sched.lock);
		return gp;
	}
	releasep(mp);
	pidleput(pp);
	unlock(&sched.lock);

	/* Drop spinning before the final check of all queues: a G readied
	 * after this point sees nmspinning == 0 and calls wakep itself. */
	if (mp->spinning) {
		mp->spinning = false;
		if ((int32_t)atomic_add(&sched.nmspinning, -1) < 0)
			gmp_throw("findrunnable: negative nmspinning");
		for (int i = 0; i <= procs; i++) {
			if (i == procs ? !gmp_rt_queued() : runqempty(&allp[i]))
				continue;
			if (acquireidlep(mp)) {
				mp->spinning = true;
				atomic_add(&sched.nmspinning, 1);
				goto top;
			}
			break;
		}
	}
	/* One idle M at a time sleeps in the poller rather than on its note,
	 * until the next timer (proc.go: findRunnable's blocking netpoll). */
	/* Realtime timers too: the poller watches for changes of the clock
	 * (netpoll.c), after which their deadlines are somewhere else. */
	if ((gmp_netpoll_waiters() > 0 || gmp_timers_realtime() > 0) &&
	    __atomic_exchange_n(&sched.lastpoll, 0, __ATOMIC_ACQ_REL) != 0) {
		int64_t next = gmp_timers_next();
		gmp_sigmask_idle(mp);
		gmp_netpoll_set_until(next);
		int64_t delay = next < 0 ? -1 : next - gmp_nanotime();
		gmp_cpuclock_sleep(mp);
		struct g *list = gmp_netpoll(next < 0 ? -1 : delay > 0 ? delay : 0);
		gmp_cpuclock_wake(mp, 0);
		gmp_netpoll_set_until(0);
		__atomic_store_n(&sched.lastpoll, gmp_nanotime(), __ATOMIC_RELEASE);
		if (acquireidlep(mp)) {
			if (list)
				return netpoll_pick(list);
			goto top;
		}
		GMP_CTR_NOP_ADD(netpollwakes, gmp_glist_len(list));
		injectglist(list);
		run_timers(mp);
	}
	int64_t until = gmp_timers_watch(gmp_timers_next());
	bool gotp = stopm(mp, until);
	gmp_timers_unwatch(until);
	if (!gotp) {
		/* Woke for a timer with no P: take one if any is idle, and run
		 * every P's due timers from here rather than as a spinning M,
		 * whose find would wake yet another M (resetspinning). */
		bool havep = acquireidlep(mp);
		ready_list(mp, gmp_timers_collect_all(NULL, gmp_nanotime(), 0), true);
		if (!havep && !stopm(mp, -1)) /* every P is busy: the Gs went to the global queue */
			gmp_throw("stopm: woke without a P");
	}
	goto top;
}

/* Runs the due timers of mp's P, or of every P if it holds none (then
 * the Gs are queued globally). */
static void run_timers(struct m *mp)
{
	int64_t now = gmp_nanotime();
	struct g *list = mp->p ? gmp_timers_collect(mp->p, now) : gmp_timers_collect_all(NULL, now, 0);
	if (list == NULL)
		return;
	gmp_ready_list(mp, list);
}

/* proc.go: checkTimers at every schedule, not only in findrunnable: a P
 * whose run queue never drains would never get there.  Reads the clock
 * only when the P has a timer at all. */
static void checktimers(struct m *mp)
{
	struct p *pp = mp->p;
	if (load_acq(&pp->timers.mono.when0) < 0 && load_acq(&pp->timers.real.when0) < 0)
		return;
	run_timers(mp);
}

/* A G switched to g0 through mcall: finish what it asked for. */
static void g0_after_switch(struct m *mp, struct g *gp)
{
	void (*fn)(struct g *, void *) = mp->after_switch;
	mp->after_switch = NULL;
	fn(gp, mp->after_arg);
}

void gmp_polled_done(struct m *mp, struct g *gp)
{
	int64_t held = gmp_nanotime() - mp->polledwhen;
	mp->polledwhen = 0;
	if (held <= 0)
		held = 1;
	gp->pollheld = gp->pollheld ? (gp->pollheld + held) / 2 : held;
}

static void execute(struct m *mp, struct g *gp, bool inherit)
{
	mp->curg = gp;
	gp->m = mp;
	gp->preempt = 0;
	casgstatus(gp, G_RUNNABLE, G_RUNNING);
	mp->p->ctr.switches++;
	if (gp->woke) {
		gp->woke = false;
		__atomic_store_n(&mp->p->wokeget, mp->p->wokeget + 1, __ATOMIC_RELEASE);
	}
	if (!inherit) {
		/* A slice is timed (a clock read) only when a G waits behind
		 * it: sysmon then looks when it ends, not at a look of its own
		 * that may come a whole sleep later. */
		struct p *pp = mp->p;
		pp->slicewhen = gmp_timeslice_ns > 0 && (!runqempty(pp) || load_acq(&sched.runqsize) > 0) ?
					gmp_nanotime() : 0;
		__atomic_store_n(&pp->schedtick, pp->schedtick + 1, __ATOMIC_RELEASE);
	}
	/* The one FS write of a switch, skipped when the same G resumes. */
	if (mp->curfs != gp->tcb) {
		gmp_arch_setfs(gp->tcb);
		mp->curfs = gp->tcb;
	}
	if (__builtin_expect(gmp_altstack_in_use(gp, gp->sched_sp), 0)) {
		if (mp->sigmask != GMP_SIGMASK_ALL)
			gmp_sigmask_setm(mp, GMP_SIGMASK_ALL);
	} else {
		gmp_sigmask_load(mp, gp);
	}
	bool cpuclock = __atomic_load_n(&gmp_cpuclock_on, __ATOMIC_RELAXED);
	if (cpuclock)
		gmp_cpuclock_in(mp);
	gmp_san_before_switch(&mp->asan_fake, gp->stack_lo, gp->stack_size);
	gmp_swap(&mp->g0_sp, gp->sched_sp);
	gmp_san_after_switch(mp->asan_fake);
	if (cpuclock || mp->cpuin)
		gmp_cpuclock_out(mp, gp);
	if (mp->polledwhen)
		gmp_polled_done(mp, gp);
	g0_after_switch(mp, gp);
}

/* --- Gs locked to their M (proc.go: LockOSThread) ---
 * The kernel keeps some state per thread, not per process: ptrace's
 * tracer is the thread that attached, or that forked a PTRACE_TRACEME
 * child, and requests from any other thread fail.  A G that made such
 * state runs from then on only on the M that made it, and that M runs
 * no other G: when the G waits, the M gives its P away and sleeps; the M
 * that finds the G runnable hands it the G and its own P.
 *
 * A G that forks is not locked so: every wait of a locked G is a hand-off
 * between two Ms (2 futex wake-ups and 2 sleeps), and a process that
 * forked keeps its children for long (stress-ng's stressors, an event
 * loop that spawns helpers).  Its fork M is kept for it instead (keptfor:
 * it runs no other G, and sleeps while the G runs elsewhere), its later
 * forks and its ptrace requests hop there (gmp_forkm_hop), and the M is
 * let go once the G has waited for all its children or exits. */

/* mp's G is locked to it and not running: gives up the P, sleeps until an
 * M that found the G runnable hands over a P for it (proc.go:
 * stoplockedm).  Not on the idle list: startm never picks it. */
static void stoplockedm(struct m *mp)
{
	if (mp->p)
		handoffp(releasep(mp));
	m_sleep_own(mp);
	notesleep(&mp->park);
	m_take_nextp(mp);
}

/* mp is kept for a G that runs elsewhere (or is let go): gives up the P
 * and sleeps until the G hops here (startlockedm hands over a P, lockedg
 * is set: schedule runs it at once) or lets the M go (it becomes an idle
 * M).  keptsleep says it sleeps, for forkm_letgo's wake-up. */
static void m_kept_sleep(struct m *mp)
{
	if (mp->p)
		handoffp(releasep(mp));
	m_sleep_own(mp);
	__atomic_store_n(&mp->keptsleep, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&mp->keptfor, __ATOMIC_SEQ_CST) == NULL) {
		uint32_t one = 1;
		if (__atomic_compare_exchange_n(&mp->keptsleep, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			goto letgo;
		/* forkm_letgo took the flag: its wake-up is coming. */
	}
	notesleep(&mp->park);
	__atomic_store_n(&mp->keptsleep, 0, __ATOMIC_RELAXED);
	if (mp->nextp) {
		m_take_nextp(mp);
		mp->lockedready = true;
		return;
	}
	noteclear(&mp->park);
letgo:
	gmp_cpuclock_wake(mp, 0);
	if (!stopm(mp, -1))
		gmp_throw("m_kept_sleep: woke without a P");
}

/* gp, runnable and off every queue, is locked to another M: gives that M
 * this M's P to run it, and parks this M (proc.go: startlockedm). */
static void startlockedm(struct m *mp, struct g *gp)
{
	struct m *lm = gp->lockedm;
	lm->nextp = releasep(mp);
	notewakeup(&lm->park);
	if (!stopm(mp, -1))
		gmp_throw("startlockedm: woke without a P");
}

/* The running G stays on its M from now on, for reason (GLOCK_*).  The
 * caller is on the G, in the shim's code, where it is never preempted. */
void gmp_lockosthread(uint32_t reason)
{
	struct g *gp = getg();
	if (gp == NULL || (gp->flags & G_FOREIGN) || gp->m == NULL)
		return;
	if (gp->lockreasons == 0) {
		gp->lockedm = gp->m;
		gp->m->lockedg = gp;
	}
	gp->lockreasons |= reason;
}

void gmp_unlockosthread(uint32_t reason)
{
	struct g *gp = getg();
	if (gp == NULL || !(gp->lockreasons & reason))
		return;
	gp->lockreasons &= ~reason;
	if (gp->lockreasons == 0)
		unlockg(gp);
}

/* On g0: gp hops onto its fork M, which takes this M's P (startlockedm). */
static void hop_m(struct g *gp, void *arg)
{
	(void)arg;
	casgstatus(gp, G_RUNNING, G_RUNNABLE);
	dropg(gp->m, gp);
	startlockedm(g0_getm(), gp);
}

bool gmp_forkm_hop(void)
{
	struct g *gp = getg();
	if (gp == NULL || gp->forkm == NULL || gp->lockreasons != 0)
		return false;
	struct m *fm = gp->forkm;
	gp->lockreasons = GLOCK_HOP;
	gp->lockedm = fm;
	__atomic_store_n(&fm->lockedg, gp, __ATOMIC_RELEASE);
	if (gp->m != fm)
		mcall(hop_m, NULL);
	return true;
}

/* The fork M is kept for gp from its first fork on (the caller runs on
 * it: the fork hopped there). */
static void forkm_keep(struct g *gp)
{
	if (gp->forkm != NULL || gp->m == NULL)
		return;
	gp->forkm = gp->m;
	__atomic_store_n(&gp->m->keptfor, gp, __ATOMIC_SEQ_CST);
}

/* gp no longer needs its fork M: the M goes back to running any G. */
static void forkm_letgo(struct g *gp)
{
	struct m *fm = gp->forkm;
	if (fm == NULL)
		return;
	gp->forkm = NULL;
	__atomic_store_n(&fm->keptfor, NULL, __ATOMIC_SEQ_CST);
	uint32_t one = 1;
	if (__atomic_compare_exchange_n(&fm->keptsleep, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		notewakeup(&fm->park);
}

/* A wait of the running G's for its children ended: reaped, one child is
 * gone; none, it has none left (ECHILD).  With none left the G no longer
 * needs the M that forked them. */
void gmp_children_waited(bool reaped, bool none)
{
	struct g *gp = getg();
	if (gp == NULL)
		return;
	if (reaped && gp->nchildren > 0)
		gp->nchildren--;
	if (none)
		gp->nchildren = 0;
	if (gp->nchildren == 0)
		forkm_letgo(gp);
}

/* One round of scheduling, on g0 (proc.go: schedule).  Never returns. */
void schedule(void)
{
	struct m *mp = g0_getm();
	for (;;) {
		/* The G locked to this M parked, yielded or was preempted: this
		 * M runs nothing else, so it waits until the G is runnable. */
		if (__atomic_load_n(&mp->lockedg, __ATOMIC_ACQUIRE)) {
			if (!mp->lockedready)
				stoplockedm(mp);
			mp->lockedready = false;
			checktimers(mp);
			execute(mp, mp->lockedg, false);
			continue;
		}
		/* Kept for a G that forked here and runs elsewhere now. */
		if (__builtin_expect(__atomic_load_n(&mp->keptfor, __ATOMIC_ACQUIRE) != NULL, 0)) {
			m_kept_sleep(mp);
			continue;
		}
		checktimers(mp);
		struct p *pp = mp->p;
		struct g *gp = NULL;
		bool inherit = false;
		/* A realtime G first, before anything else (rtprio.c). */
		gp = rtget();
		/* Check the global queue once in a while for fairness: two Gs that
		 * keep readying each other would starve it otherwise. */
		if (gp == NULL && pp->schedtick % 61 == 0 && load_acq(&sched.runqsize) > 0) {
			lock(&sched.lock);
			gp = globrunqget(pp, 1);
			unlock(&sched.lock);
		}
		if (__builtin_expect(load_acq(&pp->wakedue) != 0, 0) && wake_if_due(pp, gmp_nanotime()))
			pp->ctr.keepwakes++;
		if (gp == NULL)
			gp = runqget(pp, &inherit);
		if (gp == NULL)
			gp = findrunnable(mp, &inherit);
		/* runnext inherits what is left of the slice (proc.go), so
		 * that two Gs readying each other cannot keep the P; after a
		 * preemption nothing is left, and an inheritor would be
		 * preempted at sysmon's next look, again and again down a
		 * chain of readied Gs (a thread-per-connection server). */
		if (mp->freshslice) {
			mp->freshslice = false;
			inherit = false;
		}
		if (mp->spinning)
			resetspinning(mp);
		if (gp->lockedm) {
			startlockedm(mp, gp);
			continue;
		}
		execute(mp, gp, inherit);
	}
}

/* g0 entry of every M: the P (if any) was handed over in nextp. */
__attribute__((no_sanitize_address)) void mstart_on_g0(struct m *mp) /* as gmp_m0_g0_entry */
{
	if (mp->nextp) {
		acquirep(mp, mp->nextp);
		mp->nextp = NULL;
	} else {
		if (!stopm(mp, -1))
			gmp_throw("mstart: woke without a P");
	}
	schedule();
}

void gmp_procs_init(int nprocs)
{
	allp = aligned_alloc(64, sizeof(struct p) * (size_t)nprocs);
	if (allp == NULL)
		gmp_throw("cannot allocate Ps");
	for (int i = 0; i < nprocs; i++) {
		struct p *pp = &allp[i];
		*pp = (struct p){ .id = i, .timers.mono.when0 = -1, .timers.real.when0 = -1 };
	}
	sched.gomaxprocs = nprocs;
	for (int i = nprocs - 1; i >= 1; i--)
		pidleput(&allp[i]);
}

/* First entry into M0's g0, from the main G's first mcall.  Not ASan-
 * instrumented (-Dsanitize_shim=address): before the call to the noreturn
 * schedule() ASan would unpoison "the current thread's stack", which on
 * g0 it looks up through the last G's TLS (in a fork child, a G that is
 * gone). */
__attribute__((no_sanitize_address)) void gmp_m0_g0_entry(void *arg)
{
	struct m *mp = arg;
	gmp_san_after_switch(NULL);
	/* The main thread's first run ends here, not in an execute. */
	if (mp->cpuin)
		gmp_cpuclock_out(mp, mp->curg);
	g0_after_switch(mp, mp->curg);
	schedule();
}

void gmp_bootstrap_m0(struct m *m0, struct g *gp)
{
	acquirep(m0, &allp[0]);
	m0->curg = gp;
	gp->m = m0;
}

void gmp_ready_on(struct m *mp, struct g *gp)
{
	ready_on(mp, gp, true);
}

/* gmp_ready_list; findrunnable, which looks at its P's queue next and
 * so runs the last G queued (runnext) itself, passes runsnext to spare
 * waking another M for it. */
static void ready_list(struct m *mp, struct g *list, bool runsnext)
{
	if (mp && mp->curg)
		gmp_checkp(mp);
	if (mp == NULL || mp->p == NULL) {
		injectglist(list);
		return;
	}
	while (list) {
		struct g *gp = list;
		list = gp->schedlink;
		gp->schedlink = NULL;
		ready_on(mp, gp, !runsnext || list != NULL);
	}
}

void gmp_ready_list(struct m *mp, struct g *list)
{
	ready_list(mp, list, false);
}

void sched_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&sched.lock);
		lock(&sched.gflock);
		return;
	}
	if (phase == FORK_PARENT) {
		unlock(&sched.gflock);
		unlock(&sched.lock);
		/* The child's parent, for the kernel, is this M's thread: the
		 * tracer of a PTRACE_TRACEME child. */
		struct g *self = getg();
		if (self && !(self->flags & G_FOREIGN)) {
			self->nchildren++;
			forkm_keep(self);
		}
		return;
	}
	struct g *gp = getg();
	struct m *mp = gp->m;
	gmp_sig_fork_child(gp);
	/* The child has no children and no tracees of its own yet. */
	gp->nchildren = 0;
	gp->forkm = NULL;
	mp->keptfor = NULL;
	mp->keptsleep = 0;
	unlockg(gp);
	mp->lockedready = false;
	sched.lock = sched.gflock = (struct mutex){ 0 };
	sched.midle = NULL;
	sched.nmidle = 0;
	sched.allm = mp;
	mp->alllink = NULL;
	sched.mcount = 1;
	sched.nmspinning = 0;
	sched.runqhead = sched.runqtail = NULL;
	sched.runqsize = 0;
	gmp_rt_fork_child(gp);
	sched.ngs = 1;
	sched.lastpoll = gmp_nanotime();
	sched.pidle = NULL;
	sched.npidle = 0;
	mp->spinning = false;
	mp->nextp = NULL;
	mp->oldp = NULL;
	mp->polledwhen = 0;
	sched.wokeput = 0; /* the Gs it counted are gone */
	for (int i = sched.gomaxprocs - 1; i >= 0; i--) {
		struct p *pp = &allp[i];
		pp->wokeput = pp->wokeget = 0;
		pp->runqhead = pp->runqtail = 0;
		pp->runnext = NULL;
		pp->wakedue = 0;
		if (pp == mp->p)
			continue;
		pp->m = NULL;
		pp->status = P_IDLE;
		pidleput(pp);
	}
}
