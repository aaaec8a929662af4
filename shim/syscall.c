/* Blocking system calls (proc.go: entersyscall, exitsyscall, handoffp).
 *
 * A G about to block in the kernel leaves its P in P_SYSCALL and makes the
 * call without one.  If the call returns quickly, the G takes the same P
 * back with one CAS and nothing else happened.  If it lasts past a sysmon
 * tick, sysmon retakes the P and hands it to another M, so the Gs queued
 * behind the blocked one keep running; the M stays in the kernel.  This is
 * the one place where the shim lets a G block its M. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch.h"
#include "cancel.h"
#include "compat/debug.h"
#include "compat/tls.h"
#include "cpuclock.h"
#include "fork.h"
#include "globrunq.h"
#include "gsignal.h"
#include "lock.h"
#include "mstart.h"
#include "netpoll.h"
#include "preempt.h"
#include "proc.h"
#include "rtprio.h"
#include "rtsig.h"
#include "runq.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* Where the calling function will be while the G is in the kernel: its
 * return address, its caller's stack pointer and frame pointer.  A macro,
 * for the frame of the function it is written in. */
#define RECORD_SYSCALL_FRAME(gp)                                                                   \
	do {                                                                                       \
		uintptr_t *fp_ = __builtin_frame_address(0);                                       \
		(gp)->syscallpc = (uintptr_t)__builtin_return_address(0);                          \
		(gp)->syscallsp = (uintptr_t)__builtin_dwarf_cfa();                                \
		(gp)->syscallbp = fp_[0];                                                          \
	} while (0)

/* Returns false when the G is already in a syscall (a call nested inside
 * another blocking call, or a G that is not running here at all): the
 * caller then makes its call without entering or leaving anything. */
bool entersyscall(void)
{
	struct g *gp = getg();
	if (gp == NULL)
		return false;
	gmp_preempt_point();
	/* A G that sysmon rescued from an unseen blocking call is back in
	 * user code: it takes a P again before this call. */
	if (gp->m)
		gmp_checkp(gp->m);
	if (__builtin_expect(gp->rescued, 0))
		exitsyscall();
	gmp_sig_hold(gp);
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING) {
		gmp_sig_release(gp);
		return false;
	}
	struct m *mp = gp->m;
	struct p *pp = mp->p;
	/* Gs a poll left on this P for its M (proc.c, injectglist_p) get an
	 * M now: a call that may block will not bring this one back soon
	 * (a database's fsync held them until sysmon's next look). */
	if (__builtin_expect(__atomic_load_n(&pp->wakedue, __ATOMIC_ACQUIRE) != 0, 0) &&
	    wake_if_due(pp, INT64_MAX))
		pp->ctr.keepwakes++;
	/* Go's syscallpc/syscallsp: a dump unwinds a G blocked in the kernel
	 * from here when the kernel's view of its M cannot be read. */
	RECORD_SYSCALL_FRAME(gp);
	casgstatus(gp, G_RUNNING, G_SYSCALL);
	pp->syscalltick++;
	mp->oldp = pp;
	mp->p = NULL;
	pp->m = NULL;
	__atomic_store_n(&pp->status, P_SYSCALL, __ATOMIC_RELEASE);
	gmp_cpuclock_sleep(mp);
	gmp_sig_release(gp);
	return true;
}

void gmp_rescue_ack(struct m *mp)
{
	uint32_t want = PSTOLEN_PENDING;
	if (__atomic_compare_exchange_n(&mp->pstolen, &want, PSTOLEN_NONE, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return; /* sysmon's proof fails now: the P stays */
	if (want != PSTOLEN_TAKEN)
		return;
	/* sysmon handed the P off: what entersyscall would have left, with
	 * no oldp to come back to. */
	struct g *gp = mp->curg;
	gp->syscallpc = mp->stolenpc;
	gp->syscallsp = mp->stolensp;
	gp->syscallbp = 0;
	casgstatus(gp, G_RUNNING, G_SYSCALL);
	gp->rescued = true;
	mp->p = NULL;
	mp->oldp = NULL;
	__atomic_store_n(&mp->pstolen, PSTOLEN_NONE, __ATOMIC_RELEASE);
}

/* On g0: no P could be had; queue the G globally and park the M until a P
 * turns up (proc.go: exitsyscall0). */
static void exitsyscall0(struct g *gp, void *arg)
{
	(void)arg;
	struct m *mp = gp->m;
	casgstatus(gp, G_SYSCALL, G_RUNNABLE);
	mp->curg = NULL;
	gp->m = NULL;
	lock(&sched.lock);
	struct p *pp = pidleget();
	if (pp == NULL) {
		gmp_markwoke(gp, &sched.wokeput);
		globrunqput(gp);
	}
	unlock(&sched.lock);
	bool locked = mp->lockedg == gp;
	if (pp) {
		acquirep(mp, pp);
		if (locked)
			mp->lockedready = true; /* schedule runs it here at once */
		else
			runqput(pp, gp, true);
		return;
	}
	if (locked)
		return; /* schedule waits for it (stoplockedm) */
	if (__atomic_load_n(&mp->keptfor, __ATOMIC_ACQUIRE) != NULL)
		return; /* kept for gp, off the idle list: schedule sleeps there (m_kept_sleep) */
	if (!stopm(mp, -1))
		gmp_throw("exitsyscall0: woke without a P");
}

/* Takes a P back after a blocking call: the one it left if sysmon did not
 * retake it, else any idle one, else the G waits in the global queue. */
static void exitsyscall_held(struct g *gp)
{
	gp->rescued = false;
	struct m *mp = gp->m;
	gmp_cpuclock_wake(mp, GMP_CPUCLOCK_LONGCALL_NS);
	struct p *pp = mp->oldp;
	mp->oldp = NULL;
	uint32_t want = P_SYSCALL;
	if (pp && __atomic_compare_exchange_n(&pp->status, &want, P_RUNNING, 0, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED)) {
		pp->m = mp;
		mp->p = pp;
		casgstatus(gp, G_SYSCALL, G_RUNNING);
		return;
	}
	if (acquireidlep(mp)) {
		casgstatus(gp, G_SYSCALL, G_RUNNING);
		return;
	}
	mcall(exitsyscall0, NULL);
}

void exitsyscall(void)
{
	struct g *gp = getg();
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_SYSCALL)
		return;
	gmp_sig_hold(gp);
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) == G_SYSCALL)
		exitsyscall_held(gp);
	gmp_sig_release(gp);
}

/* Gs wait to run on pp or anywhere (the global and realtime queues). */
static bool work_queued(struct p *pp)
{
	return !runqempty(pp) || load_acq(&sched.runqsize) != 0 || gmp_rt_queued();
}

/* Finds a home for a P whose M is gone into the kernel (proc.go:
 * handoffp): an M to run its work, or, with spinner, a spinning M if
 * nobody is looking for work, or the idle list. */
static void handoff(struct p *pp, bool spinner)
{
	if (work_queued(pp)) {
		startm(pp, false);
		return;
	}
	if (spinner && load_acq(&sched.nmspinning) + load_acq(&sched.npidle) == 0) {
		uint32_t zero = 0;
		if (__atomic_compare_exchange_n(&sched.nmspinning, &zero, 1, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED)) {
			startm(pp, true);
			return;
		}
	}
	lock(&sched.lock);
	if (sched.runqsize != 0 || sched.rtrunqsize != 0) {
		unlock(&sched.lock);
		startm(pp, false);
		return;
	}
	/* The last P going idle while Gs wait for the network: someone must
	 * poll, and the M that could has just gone into the kernel. */
	if (load_acq(&sched.npidle) == (uint32_t)sched.gomaxprocs - 1 && gmp_netpoll_waiters() > 0 &&
	    load_acq(&sched.lastpoll) != 0) {
		unlock(&sched.lock);
		startm(pp, false);
		return;
	}
	/* Its timers must be somebody's (proc.go: wakeNetPoller): an M that
	 * finds nothing to run sleeps until them.  A G locked to its M (main
	 * after a fork) that waits with a timeout parks here, and its M can
	 * run nothing else: with another P idle no spinning M was started,
	 * and the wait never ended (apache2's parent, between its rounds). */
	int64_t when = gmp_timers_next_p(pp);
	if (when >= 0 && !gmp_timers_watched(when)) {
		unlock(&sched.lock);
		startm(pp, false);
		return;
	}
	pidleput(pp);
	unlock(&sched.lock);
}

void handoffp(struct p *pp)
{
	handoff(pp, true);
}

static void put_slot(int32_t *n)
{
	__atomic_add_fetch(n, -1, __ATOMIC_ACQ_REL);
}

/* Takes one of max slots counted in *n (put_slot gives it back); false if
 * all are taken. */
static bool take_slot(int32_t *n, int32_t max)
{
	if (__atomic_add_fetch(n, 1, __ATOMIC_ACQ_REL) <= max)
		return true;
	put_slot(n);
	return false;
}

/* How many Ms may sit in a kernel wait at once.  Each is a kernel thread
 * that the netpoller would have spared: an event loop per thread (memcached
 * -t 4 has five) keeps NPTL's cost, a program with thousands of waiting
 * threads keeps the M:N bound beyond the first few. */
#define KERNEL_WAITS_MAX 8
static int32_t nkernelwaits;

/* How many of those waits may be sleeps.  A sleep parked costs 5-8 us
 * more than the kernel's own (schedule, findrunnable and an idle M's
 * timed futex sleep, only to switch back to the G at the deadline):
 * memcached's maintainer threads sleep 1 ms at a time.  But thousands of
 * sleeping threads are what M:N is for, and one M can sleep until the
 * earliest of all their timers, so only the first two sleep so. */
#define KERNEL_SLEEPS_MAX 2
static int32_t nkernelsleeps;

/* Gives up the P that entersyscall left in P_SYSCALL unless sysmon
 * already did (proc.go: entersyscallblock's handoffp), without handoffp's
 * extra spinning M: the idle list, where wakep finds it for work readied
 * later, costs no wake-up. */
static void handoff_for_wait(struct p *pp)
{
	uint32_t want = P_SYSCALL;
	if (!__atomic_compare_exchange_n(&pp->status, &want, P_IDLE, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	pp->syscalltick++;
	handoff(pp, false);
}

bool gmp_kernelwait_begin(int64_t *wake)
{
	struct g *gp = getg();
	if (gp == NULL || gp->m == NULL)
		return false;
	gmp_fork_helpers();
	struct p *pp = gmp_getp();
	if (pp == NULL || __atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING)
		return false;
	/* Once the kernel refused the runtime a thread (haproxy sets
	 * RLIMIT_NPROC to 0 when it runs), no M may leave the scheduler for
	 * a wait of the program's: nobody could replace it.  Work queued or
	 * a netpoller in need does not make the G park instead: parked, an
	 * event loop is found only by the netpoller, which every idle M then
	 * polls without blocking (0.2-0.9 extra calls a request measured);
	 * handing the P and its work to another M costs one wake-up. */
	if (gmp_newm_failing() || !gmp_sigmask_may_wait(gp->m) || gmp_sig_handled_in_call(gp))
		return false;
	if (!take_slot(&nkernelwaits, KERNEL_WAITS_MAX))
		return false;
	/* The P and its queue go to another M now: for injectglist_p's
	 * estimate, a G a poll readied is done with it here, and Gs kept on
	 * the P for this M need no M woken of their own (entersyscall's):
	 * handoff_for_wait starts one with the P for its queue.  A wait that
	 * falls back to a park reaches them through schedule. */
	if (gp->m->polledwhen)
		gmp_polled_done(gp->m, gp);
	__atomic_store_n(&pp->wakedue, 0, __ATOMIC_RELEASE);
	/* Idle Ps' timers are run by the M that watches them: whichever M
	 * goes to sleep while nobody watches the earliest, this one too
	 * (the P it gives up may hold it). */
	*wake = gmp_timers_watch(gmp_timers_next());
	if (!entersyscall()) {
		gmp_timers_unwatch(*wake);
		put_slot(&nkernelwaits);
		return false;
	}
	/* Signals that waited for the runtime's code to end (gsignal.h)
	 * are raised as entersyscall ends, and a handler's call that needed
	 * a P took it back: the G is running again, with no oldp (Node.js's
	 * SIGCHLD handler writes its self-pipe; its event loop died in
	 * handoff_for_wait).  Its wait is not ended by that handler either:
	 * the park it falls back to is. */
	if (__builtin_expect(__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_SYSCALL ||
				     gmp_sig_handled_in_call(gp),
			     0)) {
		gmp_kernelwait_end(*wake);
		return false;
	}
	/* entersyscall's frame is gone once this returns: the call is made
	 * from our caller's, which a dump unwinds the G from. */
	RECORD_SYSCALL_FRAME(gp);
	__atomic_store_n(&gp->m->kwait, 1, __ATOMIC_RELEASE);
	handoff_for_wait(gp->m->oldp);
	/* A handler that ran since (asked for by a sender that found the G
	 * in this system call, before the kernel was entered) would not end
	 * the wait: the park it falls back to does. */
	if (__builtin_expect(gmp_sig_handled_in_call(gp), 0)) {
		gmp_kernelwait_end(*wake);
		return false;
	}
	return true;
}

bool gmp_kernelwait_end(int64_t wake)
{
	bool recalled = __atomic_exchange_n(&getg()->m->kwait, 0, __ATOMIC_ACQ_REL) == 2;
	gmp_timers_unwatch(wake);
	exitsyscall();
	put_slot(&nkernelwaits);
	getg()->m->p->ctr.kwaits++; /* exitsyscall returns with a P */
	return recalled;
}

void gmp_kernelwait_recall(void)
{
	if (__atomic_load_n(&nkernelwaits, __ATOMIC_ACQUIRE) == 0)
		return;
	for (struct m *mp = __atomic_load_n(&sched.allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink) {
		uint32_t one = 1;
		if (__atomic_compare_exchange_n(&mp->kwait, &one, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			gmp_sigsend(mp, SIGREQ_PREEMPT);
			return;
		}
	}
}

void kernelwait_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_CHILD)
		nkernelwaits = nkernelsleeps = 0; /* the Ms that waited are gone */
}

void gmp_kernelwait_timers(void)
{
	struct g *list = gmp_timers_collect_all(NULL, gmp_nanotime(), 0);
	if (list == NULL)
		return;
	gmp_ready_list(getg()->m, list);
	gosched();
}

static bool nothing_else_queued(void)
{
	struct m *mp = getg()->m;
	struct p *pp = mp ? mp->p : NULL;
	return pp && !work_queued(pp);
}

static int kernel_sleep(int64_t deadline)
{
	int64_t wake;
	while (nothing_else_queued() && gmp_kernelwait_begin(&wake)) {
		int64_t until = wake >= 0 && wake < deadline ? wake : deadline;
		struct timespec ts = { until / 1000000000LL, until % 1000000000LL };
		long r = gmp_syscall_intr(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&ts, 0, 0, 0);
		bool recalled = gmp_kernelwait_end(wake);
		getg()->m->p->ctr.ksleeps++;
		if (recalled && r == -EINTR)
			return -1;
		if (r == -EINTR)
			return EINTR;
		if (until == deadline)
			return 0;
		gmp_kernelwait_timers();
	}
	return -1;
}

int gmp_kernelwait_sleep(int64_t deadline)
{
	if (deadline < 0 || gmp_deadline_is_realtime(deadline))
		return -1;
	if (!take_slot(&nkernelsleeps, KERNEL_SLEEPS_MAX))
		return -1;
	int r = kernel_sleep(deadline);
	put_slot(&nkernelsleeps);
	return r;
}

bool gmp_sys_own_tcb(long nr, const long a[6])
{
	void *tcb;
	struct g *gp = getg();
	if (!gmp_arch_syscall_sets_tcb(nr, a, &tcb) || gp == NULL || gp->m == NULL || tcb != gp->m->curfs)
		return false;
	gmp_arch_setfs(tcb);
	return true;
}

/* Calls that wait for the disk each time they are made: fsync and its
 * family, and the flushes that wait for writeback. */
static bool waits_for_disk(long nr, long a2, long a3, long a4)
{
	switch (nr) {
	case SYS_fsync:
	case SYS_fdatasync:
	case SYS_syncfs:
	case SYS_sync:
		return true;
	case SYS_msync:
		return (a3 & MS_SYNC) != 0;
#ifdef SYS_sync_file_range
	case SYS_sync_file_range:
		return (a4 & (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER)) != 0;
#endif
#ifdef SYS_sync_file_range2 /* the flags come second */
	case SYS_sync_file_range2:
		return (a2 & (SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WAIT_AFTER)) != 0;
#endif
	}
	return false;
}

long gmp_blocking_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	bool entered = entersyscall();
	/* Such a call keeps its M for tens of microseconds at least (a
	 * commit's fdatasync here: 76 us median, 220 us at p99), so its P
	 * goes now (proc.go: entersyscallblock), not after sysmon's tick,
	 * which the Gs queued on it would wait out.  Unless a handler of the
	 * program's took the P back since entersyscall
	 * (gmp_kernelwait_begin's case). */
	if (entered && waits_for_disk(nr, a2, a3, a4)) {
		struct g *gp = getg();
		struct p *oldp = gp->m->oldp;
		if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) == G_SYSCALL && oldp != NULL)
			handoff_for_wait(oldp);
	}
	long r = gmp_syscall_intr(nr, a1, a2, a3, a4, a5, a6);
	if (entered)
		exitsyscall();
	return r;
}

/* fork's family: the kernel restarts them whatever the handler's flags
 * (ERESTARTNOINTR). */
static bool ends_for_handler(long nr)
{
#ifdef SYS_fork /* not on aarch64, where clone does it */
	if (nr == SYS_fork || nr == SYS_vfork)
		return false;
#endif
	return nr != SYS_clone && nr != SYS_clone3;
}

/* A request of the runtime's (a preemption sent while the G still ran,
 * landing once it is in the kernel) ends a call the kernel does not
 * restart with EINTR, though no handler of the program's ran: natively
 * the call would have gone on, so it goes on.  A handler of the
 * program's that ran meanwhile leaves the EINTR to the program; one that
 * the runtime's signal brought, which the kernel restarted the call for,
 * ends it the same way if it lacks SA_RESTART (gsignal.c). */
long gmp_syscall_intr(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	struct g *gp = getg();
	uint32_t handled = gp ? gp->nhandled : 0;
	/* A handler's own call nests inside this one: give it back after. */
	bool outer = false;
	long outernr = 0;
	if (gp) {
		outer = gp->sigcall;
		outernr = gp->sigcallnr;
		__atomic_store_n(&gp->sigcall, false, __ATOMIC_RELEASE);
		gp->sigcallnr = nr;
		__atomic_store_n(&gp->sigcall, ends_for_handler(nr), __ATOMIC_RELEASE);
	}
	for (;;) {
		long r;
		/* Inside a cancellation point with cancellation enabled,
		 * pthread_cancel must be able to stop the call (cancel.c). */
		if (gp && __atomic_load_n(&gp->cancelpoint, __ATOMIC_RELAXED) &&
		    !(gmp_cancel_word(gp) & (CH_DISABLED | CH_EXITING))) {
			r = gmp_syscall_cancel_arch(&gp->cancelkick, nr, a1, a2, a3, a4, a5, a6);
			if (r == -ECANCELED || (r == -EINTR && gmp_cancel_requested(gp)))
				return -EINTR; /* the point's end acts on it */
		} else {
			r = gmp_syscall6(nr, a1, a2, a3, a4, a5, a6);
		}
		/* The runtime's signal asking a kernel wait back ends it. */
		if (r != -EINTR || gp == NULL || gp->nhandled != handled ||
		    __atomic_load_n(&gp->m->kwait, __ATOMIC_ACQUIRE) == 2) {
			if (gp) {
				__atomic_store_n(&gp->sigcall, false, __ATOMIC_RELEASE);
				gp->sigcallnr = outernr;
				__atomic_store_n(&gp->sigcall, outer, __ATOMIC_RELEASE);
			}
			return r;
		}
	}
}
