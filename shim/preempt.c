/* Preemption (proc.go: preemptone, preemptM, doSigPreempt, gopreempt_m).
 *
 * sysmon marks a G that has run past its time slice (g->preempt) and, if
 * its M is running user code, signals the M.  The handler stops the G
 * only at an async-safe point: the G is running with a P, the signal
 * interrupted the G's own code (not g0), and the interrupted pc is in the
 * program's code (textmap.c).  There the G is switched out from inside the
 * handler: its full register and FPU/AVX state stays in the kernel's signal
 * frame, moved to its stack (its alternate stack if it has one, as Go's
 * handlers have SA_ONSTACK: gsigstack.c), and when the G is next
 * scheduled, on whatever M, it returns from the handler and
 * rt_sigreturn restores all of it.  Anywhere else the mark stays, and the
 * G yields at its next cooperative preemption point (gmp_preempt_point).
 *
 * The request travels as the runtime's signal (rtsig.c). */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch.h"
#include "cancel.h"
#include "compat/debug.h"
#include "compat/tls.h"
#include "gdump.h"
#include "gsignal.h"
#include "lock.h"
#include "preempt.h"
#include "proc.h"
#include "rtprio.h"
#include "rtsig.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "textmap.h"
#include "timer.h"

int64_t gmp_timeslice_ns = 500000;
int64_t gmp_wakeslice_ns = 500000 / 4;
bool gmp_asyncpreemptoff;

/* sysmon: the G on pp has run past its slice.  Mark it, and unless async
 * preemption is off, signal its M (once until the handler has run). */
void preemptone(struct p *pp)
{
	struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL)
		return;
	struct g *gp = __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE);
	if (gp == NULL || __atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING)
		return;
	__atomic_store_n(&gp->preempt, 1, __ATOMIC_RELEASE);
	if (gmp_asyncpreemptoff || mp->tid == 0)
		return;
	/* One request at a time per M; again if the last one went unanswered
	 * for a slice (merged into a program's instance of the signal). */
	int64_t now = gmp_nanotime(), sent = __atomic_load_n(&mp->preemptsent, __ATOMIC_ACQUIRE);
	if (sent != 0 && now - sent < gmp_timeslice_ns)
		return;
	__atomic_store_n(&mp->preemptsent, now, __ATOMIC_RELEASE);
	gmp_sigsend(mp, SIGREQ_PREEMPT);
}

/* Whether a G inside the loader (preempt.h) has had its two slices. */
static bool loader_deferral_over(struct g *gp)
{
	int64_t now = gmp_nanotime();
	if (gp->preemptoffsince == 0) {
		gp->preemptoffsince = now;
		return false;
	}
	return now - gp->preemptoffsince > 2 * gmp_timeslice_ns;
}

/* The M's side of a preemption request (proc.go: doSigPreempt).  Also
 * sent to an M whose G runs user code without the P sysmon took from it
 * (rescue.c): at an async-safe point it takes one back now, or waits in
 * the global queue for one, as exitsyscall's slow path does. */
void gmp_preempt_signal(void *ucv)
{
	struct g *gp = gmp_signal_g(ucv);
	struct m *mp = gp ? gp->m : gmp_signal_g0(ucv);
	if (mp)
		__atomic_store_n(&mp->preemptsent, 0, __ATOMIC_RELEASE);
	/* A thread that is dumping must not move (it may be running
	 * libunwind, which the pc test takes for the program's code). */
	if (gp == NULL || gmp_dumping_here())
		return;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(ucv, &pc, &sp);
	/* Only in the program's own code: runtime code under this handler
	 * must not see its G's state change, nor park.  Nor in a handler of
	 * the program's while the shim's code it interrupted holds a runtime
	 * lock (a fault's handler: any other waits, gmp_sig_must_wait):
	 * switched out, the G would keep the lock while it waits in a queue,
	 * and every M that then wants it, sysmon too, would sleep until then. */
	if (!gmp_pc_async_safe(pc) || gmp_locks_held != 0 || (gp->preemptoff && !loader_deferral_over(gp)))
		return; /* it yields at its next preemption point */
	gmp_checkp(mp);
	uint32_t st = __atomic_load_n(&gp->status, __ATOMIC_RELAXED);
	bool rescued = st == G_SYSCALL && gp->rescued;
	if (!rescued && (!__atomic_load_n(&gp->preempt, __ATOMIC_ACQUIRE) || st != G_RUNNING || mp->p == NULL))
		return;
	/* On the G's alternate stack (the runtime's action has SA_ONSTACK),
	 * signals raised for the G here (gmp_sig_deliver_signal) would run
	 * their handlers on that stack if let in before it leaves, SA_ONSTACK
	 * or not; left pending, they would reach whatever this M runs next.
	 * The G takes them as the handler returns, on its own stack, and is
	 * preempted at the next request. */
	ucontext_t *uc = ucv;
	uint64_t mask;
	memcpy(&mask, &uc->uc_sigmask, sizeof mask);
	bool onalt = gmp_altstack_in_use(gp, (uintptr_t)__builtin_frame_address(0));
	if (onalt) {
		uint64_t kpend = 0;
		gmp_syscall(SYS_rt_sigpending, (long)&kpend, 8, 0);
		if (kpend & ~mask)
			return;
	}
	void *how = NULL;
	if (!rescued) {
		gp->preempt = 0;
		if (gmp_rt_active() && gp->rtprio) {
			if (!gosched_rt(gp, false, &how))
				return;
		} else if (gmp_nothing_else(mp->p)) {
			return; /* it would only be resumed at once */
		}
	}
	/* The handler runs with every signal blocked; the next G on this M
	 * must run with its own mask, not that one, and the signals raised
	 * for this G (gmp_sig_deliver_signal) are taken here, before it
	 * leaves.  On the G's alternate stack g0 keeps every signal blocked,
	 * and so does the M that resumes it until it is off that stack
	 * (execute). */
	if (onalt) {
		mp->sigmask = GMP_SIGMASK_ALL;
	} else {
		gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&mask, 0, 8, 0, 0);
		/* A handler let in here may have switched the G out and back
		 * in on another M (a collector's suspend handler waits in
		 * sigsuspend, the P goes meanwhile, and the G resumes where a
		 * P is): mp is not its M any more, and may be running another
		 * G or going idle with the handler's mask still in its kernel.
		 * A record of mask written there made the next G on it keep
		 * that mask, and every signal raised for that G waited in the
		 * M's kernel queue (gc_suspend hung, about 1 run in 80 at 2
		 * Ps).  The G has been through the scheduler: no preemption
		 * is due; it only returns, on the M it is on. */
		if (__builtin_expect(gp->m != mp, 0))
			goto resumed;
		mp->sigmask = mask;
	}
	/* Inside a handler of the program's, the M it resumes on must block
	 * what that handler blocks until it returns, as this one did: the G's
	 * own mask would let its signals nest. */
	gp->sighmask = mask & ~gp->sigmask;
	if (rescued) {
		exitsyscall();
	} else {
		/* A handler let in by that (the dump's, waiting for the
		 * loader's lock) may have lost the P to sysmon while it slept:
		 * then the G goes on without one. */
		gmp_checkp(mp);
		if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING || mp->p == NULL) {
			gp->sighmask = 0;
			return;
		}
		/* To the global queue, behind everything queued locally
		 * (proc.go: gopreempt_m). */
		mp->p->ctr.preempts++;
		mp->p->ctr.asyncpreempts++;
		mp->freshslice = true;
		/* Stopped in a spin-wait loop: the G it waits for may be the
		 * one queued behind it (sysmon.c, g_slice). */
		if (!gmp_debug.nospinwait && gmp_arch_spin_hint_near(pc)) {
			gp->spinwait++;
			mp->p->ctr.spinpreempts++;
		} else {
			gp->spinwait = 0;
		}
		mcall(gosched_m, how);
	}
resumed:
	gp->sighmask = 0;
	/* Resumed, perhaps on another M, whose mask is now that one: returning
	 * from the handler restores every register and that mask. */
	getg()->m->sigmask = mask;
}

/* A G marked for preemption yields here, at an entry into the shim where
 * it holds no runtime lock. */
void gmp_preempt_yield(void)
{
	struct g *gp = getg();
	/* A lock held: in a handler on top of the shim's code (see
	 * gmp_preempt_signal). */
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING || gmp_locks_held != 0)
		return;
	/* An asynchronous cancellation the handler could not act on. */
	uint32_t ch = gmp_cancel_word(gp);
	if (gmp_cancel_due(ch) && (ch & CH_ASYNC))
		gmp_cancel_act();
	gp->preempt = 0;
	void *how;
	if (gmp_rt_active() && gp->rtprio) {
		if (gosched_rt(gp, false, &how)) {
			gmp_getp()->ctr.preempts++;
			gp->m->freshslice = true;
			mcall(gosched_m, how);
		}
		return;
	}
	gmp_getp()->ctr.preempts++;
	gp->m->freshslice = true;
	gosched();
}

void gmp_preempt_signals(void)
{
	struct g *gp = getg();
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) == G_RUNNING && gmp_locks_held == 0 && !gp->sighold &&
	    gmp_sig_deliverable(gp))
		gmp_sig_deliver_pending();
}
