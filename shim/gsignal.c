/* Signals per G.  The kernel knows only the Ms, so the runtime keeps, per
 * G, what the kernel keeps per thread: the signal mask and the signals
 * sent to that thread and not yet delivered.
 *
 *  - The mask: an M runs with the mask of the G on it (execute loads it,
 *    one rt_sigprocmask only when it differs from the M's current one).
 *    The runtime's own signal is never blocked in the kernel.
 *  - Thread-directed signals (pthread_kill, raise): kept pending on the
 *    G, and raised with tgkill on its own M while it runs with the signal
 *    unblocked, so the kernel delivers them to that very G with NPTL's
 *    siginfo (SI_TKILL).  A running G's M is asked to do so through the
 *    runtime's signal; a G that is not running does it when it next runs;
 *    a parked G is woken for it (its wait returns EINTR or wakes
 *    spuriously, as the same wait does under NPTL). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch.h"
#include "cancel.h"
#include "compat/debug.h"
#include "gsignal.h"
#include "gsigq.h"
#include "rtsig.h"
#include "runtime.h"
#include "sema.h"
#include "sigtramp.h"
#include "sigwake.h"
#include "stack.h"
#include "sys.h"
#include "syscall.h"
#include "sysmon.h"
#include "textmap.h"
#include "thread.h"

uint64_t gmp_unblockable;

/* The kernel ignores SIGKILL and SIGSTOP in a mask; glibc keeps its own
 * two (SIGCANCEL, SIGSETXID) unblockable. */
static const uint64_t never_blocked = SIGBIT(SIGKILL) | SIGBIT(SIGSTOP) | SIGBIT(32) | SIGBIT(33);

/* The calling thread unblocks a signal that became the runtime's at once
 * (start-up: the process may have inherited it blocked), the other Ms when
 * they next load a mask. */
void gmp_sig_unblockable(int sig, bool on)
{
	uint64_t bit = SIGBIT(sig);
	if (!on) {
		__atomic_and_fetch(&gmp_unblockable, ~bit, __ATOMIC_SEQ_CST);
		return;
	}
	__atomic_or_fetch(&gmp_unblockable, bit, __ATOMIC_SEQ_CST);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&bit, 0, 8, 0, 0);
	struct g *gp = getg();
	if (gp && gp->m)
		gp->m->sigmask &= ~bit;
}

/* For each signal, how many live Gs block it: an idle M blocks exactly
 * the signals every G blocks, so that a process-directed signal that
 * some thread takes is never held back by an idle M, and one that every
 * thread blocks (the sigwait pattern) is never taken by one. */
static int32_t nblocking[64];
/* The signals any G ever blocked: the only ones idle_mask, which every M
 * computes each time it goes idle, need look at.  Never cleared, as a
 * count that drops to 0 may rise again at once. */
static uint64_t everblocked;

void gmp_sigmask_count(uint64_t mask, int delta)
{
	if (delta > 0 && (mask & ~__atomic_load_n(&everblocked, __ATOMIC_RELAXED)))
		__atomic_or_fetch(&everblocked, mask, __ATOMIC_RELAXED);
	for (; mask; mask &= mask - 1)
		__atomic_add_fetch(&nblocking[__builtin_ctzll(mask)], delta, __ATOMIC_RELAXED);
}

static uint64_t idle_mask(void)
{
	int32_t live = __atomic_load_n(&sched.ngs, __ATOMIC_RELAXED);
	uint64_t want = 0;
	if (live <= 0)
		return 0;
	for (uint64_t m = __atomic_load_n(&everblocked, __ATOMIC_RELAXED); m; m &= m - 1) {
		int i = __builtin_ctzll(m);
		if (__atomic_load_n(&nblocking[i], __ATOMIC_RELAXED) >= live)
			want |= 1ull << i;
	}
	return want & ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
}

bool gmp_sigmask_may_wait(struct m *mp)
{
	uint64_t held = mp->sigmask;
	return held == 0 || (held & ~idle_mask()) == 0;
}

/* After an M without a G recorded want as its mask: did the counts gain
 * a signal want lets in?  want may have come from counts read before a
 * G blocked that signal, and the recheck of that G's pthread_sigmask or
 * exit, reading this M's record before the store, found the signal
 * blocked there already and did not ask it (an M that the kernel switched
 * out between the two then let in, and took, a signal every thread
 * blocked).  The store, the fence and the counts read here pair with the
 * recheck's counts, fence and record read: one of the two sees the
 * other. */
static bool idle_mask_behind(uint64_t want)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return (idle_mask() & ~want) != 0;
}

/* stopm, goexit0, the poller: the mask an M without a G runs with.  The
 * caller has cleared mp->curg: the fence orders that before the counts
 * are read, as gmp_sigmask_recheck orders its counts before it reads
 * curg, so that either this M sees the new counts or the recheck sees
 * this M idle and asks it.
 *
 * The request's handler, landing between our rt_sigprocmask and the
 * store of mp->sigmask (where the kernel delivers a signal sent during
 * the call), would install a newer mask that the store then misnamed:
 * the next G to run with a mask equal to the stale record kept the
 * newer one, and its pthread_sigmask computed its mask from it, which let
 * in a signal it blocked (tests/integration/signal_takers under qemu:
 * another reader's signal taken by a reader, 1 run in 5).  So here the
 * handler only asks for another look. */
void gmp_sigmask_idle(struct m *mp)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	do {
		mp->idlemaskredo = false;
		__atomic_store_n(&mp->idlemasking, true, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		uint64_t want = idle_mask();
		/* The record stops naming blocked what the kernel is to let
		 * in before it does, and the counts are read again: a G that
		 * blocked it since either sees this M's record lacking it and
		 * asks, or is seen here. */
		if (want != mp->sigmask) {
			mp->sigmask &= want;
			if (!idle_mask_behind(want))
				gmp_sigmask_setm(mp, want);
		}
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&mp->idlemasking, false, __ATOMIC_RELAXED);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&mp->idlemaskredo, __ATOMIC_RELAXED) || mp->sigmask != idle_mask());
}

/* After the set of live Gs or their masks changed: once every G blocks a
 * signal, no M may take it any more, before the change returns.  NPTL's
 * pthread_sigmask is in force when it returns, and a process-directed
 * signal that all threads block then stays pending (the sigwait
 * pattern); an M that still took it would run its handler on no thread
 * or, if the action is the default, end the process at once.  An M
 * running a G has that G's mask, or is about to load it; an M asleep
 * without a G can change its mask only itself, so it is asked through the
 * runtime's signal, whose handler rewrites the mask rt_sigreturn will
 * install, and the caller waits until it did.  A signal some G now
 * unblocks, Ms let through when they next go idle. */
void gmp_sigmask_recheck(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	struct m *self = getg() ? getg()->m : NULL;
	int64_t waited = 0, start = 0, resend = 0;
	for (;;) {
		uint64_t want = idle_mask();
		bool behind = false, ask = waited >= resend;
		if (want == 0)
			return;
		for (struct m *mp = __atomic_load_n(&sched.allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink) {
			if (mp == self || mp->tid == 0 || __atomic_load_n(&mp->gone, __ATOMIC_ACQUIRE) ||
			    (want & ~__atomic_load_n(&mp->sigmask, __ATOMIC_ACQUIRE)) == 0)
				continue;
			behind = true;
			if (ask && __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) == NULL)
				gmp_sigsend(mp, SIGREQ_IDLEMASK);
		}
		if (!behind)
			return;
		/* A request merges with one already pending: ask again now and
		 * then rather than rely on the first. */
		if (ask)
			resend = waited + 1000000;
		if (waited > 100000000) {
			/* Only an M in a handler of the program's that blocks the
			 * runtime's signal, for that long. */
			gmp_unsupported("pthread_sigmask: an idle M did not take up a signal all threads block");
			return;
		}
		gmp_syscall(SYS_sched_yield, 0, 0, 0);
		int64_t now = gmp_nanotime();
		if (start == 0)
			start = now;
		waited = now - start;
	}
}

/* The M whose g0 stack a signal interrupted, if it did. */
struct m *gmp_signal_g0(void *uc)
{
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	for (struct m *m = __atomic_load_n(&sched.allm, __ATOMIC_ACQUIRE); m; m = m->alllink)
		if (sp >= (uintptr_t)m && sp < (uintptr_t)m + M_REGION_SIZE)
			return m;
	return NULL;
}

/* execute writes the register before m->curfs: a signal between the two
 * writes that put m->curfs back would put the last G's TCB under the next
 * G (a SIGPROF on an M switching Gs crashed so, about 1 run in 200 of
 * tests/integration/signal_cputimer).  But an M without a G keeps the TCB
 * of the G it ran last until it sleeps or runs another, and once that G
 * has exited its TCB may be cleared for a new thread on another M
 * (gmp_tls_setup): its self pointer reads 0 there, and putting that back
 * left the M with no FS base (signal_retarget crashed so, about 1 run in
 * 300).  The register then still holds m->curfs: execute's window is
 * never on a TCB being cleared. */
struct gmp_g0tls gmp_g0tls_enter(void *uc)
{
	struct gmp_g0tls t = { gmp_signal_g0(uc), NULL };
	if (t.m) {
		t.tp = gmp_arch_tp();
		if (t.tp == NULL)
			t.tp = t.m->curfs;
		if (t.tp != t.m->owntcb)
			gmp_arch_setfs(t.m->owntcb);
	}
	return t;
}

void gmp_g0tls_leave(struct gmp_g0tls t)
{
	if (t.m && t.tp != t.m->owntcb)
		gmp_arch_setfs(t.tp);
}

static uint64_t uc_mask(void *ucv)
{
	uint64_t m;
	memcpy(&m, &((ucontext_t *)ucv)->uc_sigmask, sizeof m);
	return m;
}

/* The M without a G whose g0 a signal interrupted, if it did (with a G,
 * the M has that G's mask). */
static struct m *idle_m(void *uc)
{
	struct m *mp = gmp_signal_g0(uc);
	return mp && __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) == NULL ? mp : NULL;
}

/* Interrupted inside gmp_sigmask_idle, which then looks again itself. */
static bool idle_deferred(struct m *mp)
{
	if (!__atomic_load_n(&mp->idlemasking, __ATOMIC_RELAXED))
		return false;
	__atomic_store_n(&mp->idlemaskredo, true, __ATOMIC_RELAXED);
	return true;
}

/* The idle mask (and also) into the context rt_sigreturn installs, and
 * into the record, until no G blocked more meanwhile. */
static void idle_to_uc(struct m *mp, void *ucv, uint64_t also)
{
	uint64_t want;
	do {
		want = idle_mask() | also;
		memcpy(&((ucontext_t *)ucv)->uc_sigmask, &want, sizeof want);
		mp->sigmask = want;
	} while (idle_mask_behind(want));
}

/* The runtime's request that an M with no G block what every G blocks:
 * the mask rt_sigreturn installs changes.  A request nested in a
 * trampoline of this M's (a program's signal that the M took) only adds
 * to what that trampoline's context blocks, which stays in force until it
 * returns; the outermost trampoline then installs the idle mask in its
 * own context (gmp_sigmask_tramp_leave).  The nested context's mask alone
 * was undone by the trampoline's rt_sigreturn, with the record saying
 * blocked what the kernel let in: the next G whose mask equalled the
 * record ran with its signals unblocked in the kernel, and an idle M took
 * a process-directed signal every G blocked (tests/integration
 * signal_idle_mask). */
void gmp_sigmask_idle_signal(void *ucv)
{
	struct m *mp = idle_m(ucv);
	if (mp != NULL && !idle_deferred(mp))
		idle_to_uc(mp, ucv, mp->g0tramps > 0 ? uc_mask(ucv) : 0);
}

struct m *gmp_sigmask_tramp_enter(void *uc)
{
	struct m *mp = idle_m(uc);
	if (mp != NULL)
		mp->g0tramps++;
	return mp;
}

/* Every signal stays blocked from here to rt_sigreturn, which installs
 * the idle mask: a request landing after the mask was chosen would write
 * its own context only, and reach this one only as it returned; blocked,
 * it comes after, on the idle context itself. */
void gmp_sigmask_tramp_leave(struct m *mp, void *ucv)
{
	if (mp == NULL || --mp->g0tramps > 0 || idle_deferred(mp))
		return;
	uint64_t all = GMP_SIGMASK_ALL;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&all, 0, 8, 0, 0);
	idle_to_uc(mp, ucv, 0);
}

/* The runtime's own threads (sysmon, the template thread) take no signal
 * of the program's; glibc's two internal ones they must (setuid and
 * friends signal every thread glibc knows and wait for each). */
uint64_t gmp_block_signals(void)
{
	uint64_t all = ~(SIGBIT(32) | SIGBIT(33)), old = 0;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	return old;
}

void gmp_restore_signals(uint64_t old)
{
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

/* fork child: the forking G is the only thread left. */
void gmp_sig_fork_child(struct g *gp)
{
	for (int i = 0; i < 64; i++)
		nblocking[i] = 0;
	gmp_sigmask_count(gp->sigmask, 1);
	/* Natively nothing is queued on the child's thread, and a sender in
	 * the parent may have held the lock. */
	gmp_sigq_reset(gp);
}

void gmp_sigmask_setm(struct m *mp, uint64_t want)
{
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&want, 0, 8, 0, 0);
	mp->sigmask = want;
}

/* Whether the program's handler for sig restarts interrupted calls. */
static bool sig_restarts(int sig)
{
	if (sig == gmp_preemptsig) {
		struct sigaction sa;
		gmp_preemptsig_action(NULL, &sa);
		return (sa.sa_flags & SA_RESTART) != 0;
	}
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		uint64_t mask;
	} ksa;
	if (gmp_syscall6(SYS_rt_sigaction, sig, 0, (long)&ksa, 8, 0, 0) != 0)
		return true;
	return (ksa.flags & SA_RESTART) != 0;
}

/* The siginfo the thread is to see for sig (the sender's, not that of the
 * tgkill that raises it on the thread). */
static void keep_info(struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	gp->fwd[sig - 1] = *info;
	__atomic_or_fetch(&gp->fwdmask, SIGBIT(sig), __ATOMIC_SEQ_CST);
}

void gmp_sig_hold_signal(struct g *gp, int sig, const siginfo_t *si, bool process, bool raised)
{
	struct gmp_fwdinfo f = gmp_fwdinfo_of(si);
	if (gmp_sig_queues(sig)) {
		/* One the G raised was taken off its queue, ahead of the rest. */
		if (raised)
			gmp_sigq_unget(gp, sig, &f);
		else
			(void)gmp_sigq_pend(gp, sig, &f, process, si->si_code == SI_TIMER);
		return;
	}
	if (si->si_code != SI_TKILL || !(__atomic_load_n(&gp->fwdmask, __ATOMIC_SEQ_CST) & SIGBIT(sig)))
		keep_info(gp, sig, &f);
	/* The process's still if gp comes to block it first: its exit does,
	 * from inside the runtime where signals wait. */
	if (process)
		__atomic_or_fetch(&gp->sigfromproc, SIGBIT(sig), __ATOMIC_SEQ_CST);
	__atomic_or_fetch(&gp->sigpending, SIGBIT(sig), __ATOMIC_SEQ_CST);
}

/* A signal the G blocks and waits for in sigwait: into its M's kernel
 * queue, with the siginfo it was sent with. */
static void raise_waited(struct g *gp, int sig)
{
	__atomic_or_fetch(&gp->sigkraised, SIGBIT(sig), __ATOMIC_SEQ_CST);
	if (__atomic_fetch_and(&gp->fwdmask, ~SIGBIT(sig), __ATOMIC_SEQ_CST) & SIGBIT(sig)) {
		struct gmp_fwdinfo *f = &gp->fwd[sig - 1];
		siginfo_t si;
		memset(&si, 0, sizeof si);
		si.si_signo = sig;
		gmp_fwdinfo_apply(&si, f);
		gmp_syscall6(SYS_rt_tgsigqueueinfo, gmp_pid, gp->m->tid, sig, (long)&si, 0, 0);
		return;
	}
	gmp_syscall(SYS_tgkill, gmp_pid, gp->m->tid, sig);
}

/* A signal pending on the running G waits (gmp_sig_must_wait): sysmon
 * asks for it again (sysmon.c, retake). */
static void retry_later(struct g *gp)
{
	__atomic_store_n(&gp->sigretry, 1, __ATOMIC_RELEASE);
	gmp_sysmon_hurry(HURRY_WOKEN);
}

/* Raises on this M the signals pending on the running G that its mask
 * lets through; the kernel delivers each to this G on the way back from
 * tgkill (or, inside a handler that blocks everything, as the handler
 * returns).  Not those that the context the kernel returns to blocks
 * (held: a handler's mask) though the G's mask does not: they would wait
 * in this M's kernel queue, and reach whatever this M runs next if the G
 * were preempted inside that handler; they stay pending on the G until
 * the handler returns (gmp_sig_handler_return).  Returns whether it
 * raised any for a handler, and with restart non-NULL, whether every one
 * raised restarts calls (an action read: a system call a signal).  The
 * handlers themselves tell the wait they end whether it restarts
 * (gmp_sig_handled): a signal raised here may be taken a few
 * instructions later, under qemu-user after we return. */
static bool deliver(struct g *gp, uint64_t held, bool *restart)
{
	bool raised = false;
	if (restart)
		*restart = true;
	if (gp->sighold)
		return false; /* gmp_sig_release raises them: raised now, they came back here */
	if (gmp_locks_held != 0) {
		retry_later(gp);
		return false;
	}
	__atomic_store_n(&gp->sigretry, 0, __ATOMIC_RELAXED);
	uint64_t pend, done = 0;
	while ((pend = gmp_sig_deliverable(gp) & ~(held & ~gp->sigmask) & ~done) != 0) {
		int sig = __builtin_ctzll(pend) + 1;
		bool waited = gp->sigmask & SIGBIT(sig);
		if (gmp_sig_queues(sig)) {
			/* The next instance comes when the handler of this one
			 * returns (gmp_sig_handler_return), or the sigwait
			 * takes it (gmp_sigwait_kernel). */
			done |= SIGBIT(sig);
			if (!gmp_sigq_raise_next(gp, sig, waited ? &gp->sigkraised : &gp->sigraised) || waited)
				continue;
			if (restart)
				*restart &= sig_restarts(sig);
			raised = true;
			continue;
		}
		uint64_t was = __atomic_fetch_and(&gp->sigpending, ~SIGBIT(sig), __ATOMIC_SEQ_CST);
		if (!(was & SIGBIT(sig)))
			continue; /* raised by a handler that interrupted us */
		__atomic_and_fetch(&gp->sigfromproc, ~SIGBIT(sig), __ATOMIC_SEQ_CST);
		if (waited) {
			raise_waited(gp, sig);
			continue;
		}
		if (restart)
			*restart &= sig_restarts(sig);
		raised = true;
		__atomic_or_fetch(&gp->sigraised, SIGBIT(sig), __ATOMIC_SEQ_CST);
		gmp_syscall(SYS_tgkill, gmp_pid, gp->m->tid, sig);
	}
	return raised;
}

/* What the kernel blocks on the running gp's M beside gp's mask: the
 * mask of the handler it was preempted in and, in a handler running on
 * the M now (inhandler), the kernel's own, which says what that handler
 * blocks before the G switches out and records it. */
static uint64_t held_now(struct g *gp, bool inhandler)
{
	uint64_t k = 0;
	if (inhandler)
		gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&k, 8, 0, 0);
	return gp->sighmask | k;
}

/* In the G's own context, holding back what its M's kernel blocks too
 * (held_now): raised, a signal that a handler running there blocks would
 * wait in this M's kernel queue and reach whatever G the M runs next
 * (gc_suspend: a suspend signal raised as a suspended thread's sigsuspend
 * returned landed on the next G of its M). */
bool gmp_sig_deliver_pending(void)
{
	struct g *gp = getg();
	return deliver(gp, held_now(gp, gp->inhandler != 0), NULL);
}

/* kmask is the kernel's mask on gp's M now, inside a handler of the G's or
 * as the outermost one returns: the M's record says it, and so does the
 * G's handler mask while a handler still runs. */
static void record_handler_mask(struct g *gp, uint64_t kmask)
{
	kmask &= ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	gp->m->sigmask = kmask;
	gp->sighmask = gp->inhandler ? kmask & ~gp->sigmask : 0;
}

/* gp's mask becomes mask (the caller's own G, or one in its handler). */
static void set_gmask(struct g *gp, uint64_t mask)
{
	gmp_sigmask_count(gp->sigmask, -1);
	gmp_sigmask_count(mask, 1);
	gmp_sigmask_recheck();
	__atomic_store_n(&gp->sigmask, mask, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&gp->sigfromproc, __ATOMIC_SEQ_CST) & mask)
		gmp_sig_retarget(gp);
}

/* The process-directed signals pending on gp that its mask now blocks:
 * the kernel never tied them to the thread it woke for them, and hands
 * them to another thread that takes them, or leaves them pending on the
 * process (retarget_shared_pending).  Left on gp, they waited for it to
 * unblock, for good if it exited (LTP's pthread_once/6-1: the signal
 * sender waits for a handler's sem_post that never came, 7 runs in 10 at
 * two Ps).  gp: the caller's own G, its mask already stored, which
 * gmp_sig_forward reads after marking the signal, so that one of the two
 * sees the other. */
void gmp_sig_retarget(struct g *gp)
{
	uint64_t bits;
	while ((bits = __atomic_load_n(&gp->sigfromproc, __ATOMIC_SEQ_CST) &
		       __atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST)) != 0) {
		int sig = __builtin_ctzll(bits) + 1;
		uint64_t bit = SIGBIT(sig);
		if (gmp_sig_queues(sig)) {
			struct gmp_fwdinfo f;
			if (gmp_sigq_take(gp, sig, true, &f))
				gmp_sigtramp_retarget(sig, &f);
			continue;
		}
		__atomic_and_fetch(&gp->sigfromproc, ~bit, __ATOMIC_SEQ_CST);
		if (!(__atomic_fetch_and(&gp->sigpending, ~bit, __ATOMIC_SEQ_CST) & bit))
			continue; /* raised, or taken back by its forwarder */
		struct gmp_fwdinfo f = { SI_USER, 0, 0, { 0 } };
		if (__atomic_fetch_and(&gp->fwdmask, ~bit, __ATOMIC_SEQ_CST) & bit)
			f = gp->fwd[sig - 1];
		gmp_sigtramp_retarget(sig, &f);
	}
}

/* As NPTL's start_thread before the thread is gone: the signals it was
 * sent and takes are delivered now (the kernel would at any of the exit
 * path's system calls), then it blocks them all, and the process-directed
 * ones that come after go to another thread (gmp_sig_retarget).  After the
 * last thread's exit(), whose atexit handlers run with the mask as it
 * was. */
void gmp_sig_exit(struct g *gp)
{
	gmp_sig_deliver_pending();
	uint64_t all = ~never_blocked;
	uint64_t kall = all & ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&kall, 0, 8, 0, 0);
	gp->m->sigmask |= kall;
	/* Not counted any more among the Gs that block (gmp_thread_exit
	 * took it out with its mask as it was). */
	__atomic_store_n(&gp->sigmask, all, __ATOMIC_SEQ_CST);
	gmp_sig_retarget(gp);
}

struct gmp_hmask gmp_sig_handler_enter(struct g *gp, void *uc)
{
	return (struct gmp_hmask){ __atomic_load_n(&gp->sigmask, __ATOMIC_ACQUIRE), uc_mask(uc) };
}

/* The trampoline, as a handler of the G's returns to uc.  The thread's
 * mask is what it was before the handler, as rt_sigreturn makes it
 * natively: a pthread_sigmask inside the handler ends with it (a garbage
 * collector's suspend handler unblocks its restart signal there; kept,
 * the thread blocked nearly everything from then on and the collector's
 * next restart never reached it: Mono's SGen hung).  A handler that
 * rewrote the context's mask gets that mask, except inside a call that
 * sets its own (sigsuspend), whose end restores the mask.  Then the
 * signals sent to the G that the handler blocked are raised, and
 * delivered as it returns, on this M (nothing in between can switch the
 * G out). */
void gmp_sig_handler_return(void *uc, struct gmp_hmask before)
{
	struct g *gp = getg();
	uint64_t held = uc_mask(uc), want = before.g;
	if (held != before.uc && !__atomic_load_n(&gp->sigmasked, __ATOMIC_ACQUIRE)) {
		uint64_t own = __atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
		want = (held & ~own) | (before.g & own);
	}
	if (want != gp->sigmask)
		set_gmask(gp, want);
	/* rt_sigreturn installs held on this M, which may not be the one the
	 * handler began on (it parked: gmp_sig_switch_in_handler). */
	record_handler_mask(gp, held);
	if (gmp_sig_deliverable(gp) & ~(held & ~gp->sigmask))
		deliver(gp, held, NULL);
}

void gmp_sig_switch_in_handler(struct g *gp)
{
	uint64_t cur;
	if (gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&cur, 8, 0, 0) == 0)
		record_handler_mask(gp, cur);
}

/* The runtime's code includes what it calls outside the shim: its clock
 * reads run in the vDSO, its copies in libc.  A handler that landed there
 * (sched_yield reading the clock, under a collector's suspend signal) ran
 * on top of the runtime halfway through its work, and one that waited
 * there and came back on another M left that work going on with the
 * first M.  Such a call is found by the shim's return address in the
 * few words above it; these leaf calls use little stack. */
#define CALLEE_WORDS 32

static bool in_runtime(struct g *gp, uintptr_t pc, uintptr_t sp)
{
	if (gmp_pc_in_shim(pc))
		return true;
	if (gmp_pc_async_safe(pc) || !gmp_sp_in_g(gp, sp))
		return false;
	uintptr_t hi = (uintptr_t)gp->stack_lo + gp->stack_size;
	if (hi - sp > CALLEE_WORDS * sizeof(uintptr_t))
		hi = sp + CALLEE_WORDS * sizeof(uintptr_t);
	return gmp_stack_from_shim(sp, hi);
}

bool gmp_sig_must_wait(struct g *gp, void *uc, bool raised)
{
	if (gmp_locks_held == 0) {
		if (raised || __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) != G_RUNNING)
			return false;
		uintptr_t pc, sp;
		gmp_arch_signal_pc_sp(uc, &pc, &sp);
		if (!in_runtime(gp, pc, sp) || pc == (uintptr_t)gmp_arch_sigmask_let_in_ret ||
		    (__atomic_load_n(&gp->sigcall, __ATOMIC_ACQUIRE) && gmp_arch_signal_at_syscall(uc, gp->sigcallnr)))
			return false;
	}
	retry_later(gp);
	return true;
}

/* SIGREQ_DELIVER, in the runtime's handler: the G it interrupted raises
 * the signals pending on it, which the kernel delivers as that handler
 * returns.  If the G is in a system call, the kernel has already decided
 * for the runtime's signal, which has SA_RESTART, to restart it; a
 * handler without SA_RESTART must end it with EINTR instead, as it does
 * when it is the kernel's own choice (signal(7)). */
void gmp_sig_deliver_signal(void *uc)
{
	struct g *gp = gmp_signal_g(uc);
	bool restart;
	if (gp == NULL || !gmp_sig_deliverable(gp) || gmp_sig_must_wait(gp, uc, false))
		return;
	/* In a call with a mask of its own, that mask is the thread's until
	 * the call returns, whatever the context it returns to blocks (a
	 * handler's mask: a garbage collector's suspend handler waits in
	 * sigsuspend for the signal that resumes it, which the handler's
	 * sa_mask blocks).  One raised before the call begins waits in the
	 * kernel until the call's mask lets it in. */
	uint64_t held = __atomic_load_n(&gp->sigmasked, __ATOMIC_ACQUIRE) ? gp->sigmask : uc_mask(uc);
	if (!deliver(gp, held, &restart) || restart)
		return;
	if (__atomic_load_n(&gp->sigcall, __ATOMIC_ACQUIRE) && gmp_arch_signal_at_syscall(uc, gp->sigcallnr))
		gmp_arch_signal_end_syscall(uc, -EINTR);
}

/* sigwait family, between entersyscall and exitsyscall, so the G stays on
 * its M throughout.  A signal sent to this G that the wait takes is put in
 * the M's own kernel queue, where rt_sigtimedwait finds it with its
 * siginfo (SI_TKILL, or pthread_sigqueue's SI_QUEUE and value); one that
 * the wait did not take goes back to the G, so that it cannot reach
 * another G the M runs later. */
int gmp_sigwait_kernel(const void *set, siginfo_t *info, const struct timespec *ts)
{
	struct g *gp = getg();
	uint64_t want;
	memcpy(&want, set, sizeof want);
	want &= gp->sigmask & ~SIGBIT(gmp_preemptsig);
	__atomic_store_n(&gp->sigwaitset, want, __ATOMIC_SEQ_CST);
	gmp_sig_deliver_pending();
	siginfo_t own;
	if (info == NULL)
		info = &own;
	long r = gmp_syscall_intr(SYS_rt_sigtimedwait, (long)set, (long)info, (long)ts, 8, 0, 0);
	__atomic_store_n(&gp->sigwaitset, 0, __ATOMIC_SEQ_CST);
	if (r > 0 && !gmp_sigq_unwrap(gp, info))
		gmp_sigtramp_sender((int)r, info);
	uint64_t left = __atomic_exchange_n(&gp->sigkraised, 0, __ATOMIC_SEQ_CST);
	if (r > 0)
		left &= ~SIGBIT(r);
	while (left) {
		int sig = __builtin_ctzll(left) + 1;
		left &= ~SIGBIT(sig);
		uint64_t one = SIGBIT(sig);
		siginfo_t si;
		struct timespec zero = { 0, 0 };
		if (gmp_syscall6(SYS_rt_sigtimedwait, (long)&one, (long)&si, (long)&zero, 8, 0, 0) != sig)
			continue;
		if (gmp_sig_queues(sig)) {
			gmp_sigq_unwrap(gp, &si);
			struct gmp_fwdinfo f = gmp_fwdinfo_of(&si);
			gmp_sigq_unget(gp, sig, &f);
			continue;
		}
		if (si.si_code != SI_TKILL) {
			struct gmp_fwdinfo f = gmp_fwdinfo_of(&si);
			keep_info(gp, sig, &f);
		}
		__atomic_or_fetch(&gp->sigpending, one, __ATOMIC_SEQ_CST);
	}
	return (int)r;
}

/* pthread_sigmask for the running G (how as rt_sigprocmask).  The new
 * mask is computed from the M's, which is the G's own (plus, inside a
 * handler, what the kernel added for it); only the runtime's signal is
 * the G's alone and never blocked in the kernel.  A mask that may let
 * signals in goes into the kernel at a point where the program's
 * handlers run (gmp_arch_sigmask_let_in): the kernel delivers the
 * signals pending for the process as the call returns, and those that
 * landed in the runtime's code waited on the G, one pending slot per
 * signal: ten real-time signals sigqueue()d while blocked came out as
 * one, with the last value (LTP sigaction/29-1).  The G's mask and the
 * counts follow only then: an idle M that saw the counts first let the
 * signal in too, took some of the queue and forwarded it, into the same
 * one slot (tests/integration/signal_rt_queue, 8-20% of its rounds at
 * two Ps). */
int gmp_sigmask_change(int how, const uint64_t *set, uint64_t *old)
{
	struct g *gp = getg();
	struct m *mp = gp->m;
	const uint64_t own = __atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	uint64_t kset = set ? *set & ~(never_blocked | own) : 0, kold;
	bool letin = set && how != SIG_BLOCK;
	if (letin && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return EINVAL;
	long r = letin ? gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&kold, 8, 0, 0)
		       : gmp_syscall6(SYS_rt_sigprocmask, how, set ? (long)&kset : 0, (long)&kold, 8, 0, 0);
	if (r < 0)
		return (int)-r;
	uint64_t cur = kold | (gp->sigmask & own), mask = cur;
	if (set) {
		if (how == SIG_BLOCK)
			mask |= *set;
		else if (how == SIG_UNBLOCK)
			mask &= ~*set;
		else
			mask = *set;
		mask &= ~never_blocked;
		mp->sigmask = mask & ~own; /* what the kernel computed, or is to get */
		if (letin) {
			uint64_t knew = how == SIG_UNBLOCK ? kold & ~kset : kset;
			if (knew != kold)
				gmp_arch_sigmask_let_in(&knew);
		}
		set_gmask(gp, mask);
	}
	if (old)
		*old = cur;
	if (__atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & ~mask)
		gmp_sig_deliver_pending();
	return 0;
}

/* Makes a waiting G see the signals pending on it: out of its wait queue
 * with EINTR, and runnable, on mp's P (NULL: none to use). */
static void interrupt_parked(struct m *mp, struct g *gp)
{
	gmp_wake_interrupted(gp, mp);
}

/* Whether the kernel would discard sig as it is sent to a thread that
 * does not block it: its action ignores it (SIG_IGN, or SIG_DFL where
 * the default is to ignore; for the runtime's signal, the program's
 * action kept aside, whose SIG_DFL does nothing). */
static bool sig_ignored(int sig)
{
	void *h;
	if (sig == gmp_preemptsig) {
		struct sigaction sa;
		gmp_preemptsig_action(NULL, &sa);
		h = (sa.sa_flags & SA_SIGINFO) ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
		return h == (void *)SIG_DFL || h == (void *)SIG_IGN;
	}
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		uint64_t mask;
	} ksa;
	if (gmp_syscall6(SYS_rt_sigaction, sig, 0, (long)&ksa, 8, 0, 0) != 0)
		return false;
	h = ksa.handler;
	return h == (void *)SIG_IGN || (h == (void *)SIG_DFL && (sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
								   sig == SIGWINCH));
}

/* A signal sent to gp that its action ignores: natively nothing happens
 * at all, no wait is interrupted.  One the thread blocks stays pending,
 * as the kernel's: the action may have changed by the time it is
 * unblocked. */
static bool discarded(struct g *gp, int sig)
{
	return !(__atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST) & SIGBIT(sig)) && sig_ignored(sig);
}

/* Gets gp, which has sig pending now, to see it. */
static void sig_notify(struct g *self, struct g *gp, int sig)
{
	if (gp == self) {
		if (gp->sigmask & SIGBIT(sig))
			return;
		/* From inside a handler, the kernel's mask is the handler's. */
		deliver(gp, held_now(gp, __atomic_load_n(&gmp_sigdepth, __ATOMIC_ACQUIRE) != 0), NULL);
		return;
	}
	if ((__atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST) & SIGBIT(sig)) &&
	    !(__atomic_load_n(&gp->sigwaitset, __ATOMIC_SEQ_CST) & SIGBIT(sig)))
		return; /* stays pending until the G unblocks or waits for it */
	switch (__atomic_load_n(&gp->status, __ATOMIC_SEQ_CST)) {
	case G_RUNNING:
	case G_SYSCALL: {
		/* If the G has moved on by the time the request lands, the
		 * M finds nothing to raise and the G raises it when it next
		 * runs. */
		struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
		if (mp)
			gmp_sigsend(mp, SIGREQ_DELIVER);
		break;
	}
	case G_WAITING:
		if (self)
			interrupt_parked(self->m, gp);
		else
			gmp_sigwake_interrupt(gp);
		break;
	default:
		break; /* runnable: raised when it runs */
	}
}

static void sig_send(struct g *self, struct g *gp, int sig)
{
	__atomic_or_fetch(&gp->sigpending, SIGBIT(sig), __ATOMIC_SEQ_CST);
	sig_notify(self, gp, sig);
}

/* An instance of real-time signal sig for gp, queued after those pending
 * on it: 0 or EAGAIN. */
static int sig_send_rt(struct g *self, struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	int err = gmp_sigq_pend(gp, sig, info, false, false);
	if (err == 0)
		sig_notify(self, gp, sig);
	return err;
}

/* The siginfo of a real-time signal raised with tkill. */
static const struct gmp_fwdinfo tkill_info = { SI_TKILL, 0, 0, { 0 } };

/* Gets sig to gp: pthread_kill.  self: the calling G, or NULL from a
 * signal handler (the trampoline forwarding a process-directed signal),
 * which may have interrupted this very thread inside the runtime with a
 * wait-queue lock or sched.lock held: a parked G is then interrupted by
 * sysmon instead (sigwake.c). */
int gmp_sig_send(struct g *self, struct g *gp, int sig)
{
	/* To itself, one it ignores and does not block goes to the kernel,
	 * which drops it, as natively: no look at the action first. */
	if (gp != self && discarded(gp, sig))
		return 0;
	if (gmp_sig_queues(sig))
		return sig_send_rt(self, gp, sig, &tkill_info);
	sig_send(self, gp, sig);
	return 0;
}

static bool forward(struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	uint64_t bit = SIGBIT(sig);
	uint32_t st = __atomic_load_n(&gp->status, __ATOMIC_SEQ_CST);
	if (st == G_DEAD || st == G_IDLE || (__atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST) & bit))
		return false;
	if (discarded(gp, sig))
		return true;
	if (gmp_sig_queues(sig)) {
		/* Behind an instance already pending on gp, it would stay
		 * there if gp came to block the signal (gmp_sig_retarget
		 * takes back only the current one): another thread takes it,
		 * as the kernel may give it to any.  Except a POSIX timer's:
		 * the kernel queues it once and counts the expirations that
		 * come while it is pending as overruns; queued here, a timer
		 * at 100 kHz piled up tens of thousands of instances, and
		 * handed on, each walked every thread. */
		if (gmp_sigq_pend(gp, sig, info, true, true) != 0)
			return info->code == SI_TIMER; /* merged, as in the kernel (below) */
		sig_notify(NULL, gp, sig);
		if (!(__atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST) & bit))
			return true;
		struct gmp_fwdinfo back;
		return !gmp_sigq_take(gp, sig, true, &back);
	}
	keep_info(gp, sig, info);
	__atomic_or_fetch(&gp->sigfromproc, bit, __ATOMIC_SEQ_CST);
	sig_send(NULL, gp, sig);
	if (!(__atomic_load_n(&gp->sigmask, __ATOMIC_SEQ_CST) & bit))
		return true;
	if (!(__atomic_fetch_and(&gp->sigpending, ~bit, __ATOMIC_SEQ_CST) & bit))
		return true; /* gp raised or retargeted it already */
	__atomic_and_fetch(&gp->sigfromproc, ~bit, __ATOMIC_SEQ_CST);
	return false;
}

/* A process-directed signal the trampoline hands to gp if that thread is
 * alive and takes it: as gmp_sig_send_info, marked as the process's so
 * that it goes to another thread if gp comes to block it before raising
 * it (its exit blocks everything: gmp_sig_retarget).  False if gp does
 * not take it, or blocked it meanwhile and the caller has it back.
 * Pinned, gp is not made a new thread before we are done with it: the
 * thread that found it alive may have exited and its G been reset for a
 * new one halfway through, which lost the signal or the sender's siginfo
 * (tests/integration/signal_retarget: about 1 run in 1,000). */
bool gmp_sig_forward(struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	__atomic_add_fetch(&gp->fwdpins, 1, __ATOMIC_SEQ_CST);
	bool done = forward(gp, sig, info);
	__atomic_sub_fetch(&gp->fwdpins, 1, __ATOMIC_RELEASE);
	return done;
}

/* gp, a dead thread's G, is to be a new thread's.  A forward that pinned
 * it before goexit0 made it G_DEAD may be writing to it still, done in a
 * few instructions unless its M lost the CPU; one that pins it after sees
 * G_DEAD and lets go. */
void gmp_sig_unpinned(struct g *gp)
{
	for (unsigned i = 1; __atomic_load_n(&gp->fwdpins, __ATOMIC_SEQ_CST) != 0; i++)
		gmp_spin_wait(i);
}

/* gmp_sig_send with the siginfo the handler is to see (a signal forwarded
 * from the process, pthread_sigqueue's value) instead of our tgkill's. */
int gmp_sig_send_info(struct g *self, struct g *gp, int sig, const struct gmp_fwdinfo *info)
{
	if (discarded(gp, sig))
		return 0;
	if (gmp_sig_queues(sig))
		return sig_send_rt(self, gp, sig, info);
	keep_info(gp, sig, info);
	sig_send(self, gp, sig);
	return 0;
}

/* pthread_kill is async-signal-safe: from a handler, which may have
 * interrupted the runtime holding a wait-queue lock, take none.  A thread
 * that signals itself takes none anyway, and must get the signal before
 * the call returns, as the kernel delivers it (a handler that raises its
 * own signal again, which nests under SA_NODEFER). */
struct g *gmp_sig_sender(struct g *target)
{
	struct g *self = gmp_initialized ? getg() : NULL;
	return self == target || !__atomic_load_n(&gmp_sigdepth, __ATOMIC_ACQUIRE) ? self : NULL;
}

static int tid_send(pid_t tid, struct g *gp, int sig, const siginfo_t *info)
{
	/* Its TID is gone once it has exited, as natively (the G may be a
	 * new thread's by now: TIDs are never reused); the initial thread's
	 * stays while the process lives (the kernel's). */
	if (__atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD ||
	    (gp != &gmp_main_g && __atomic_load_n(&gp->tid, __ATOMIC_ACQUIRE) != tid))
		return gp == &gmp_main_g ? 1 : -ESRCH;
	if (sig < 0 || sig >= NSIG || sig == 32 || sig == 33)
		return -EINVAL; /* glibc's own two, as pthread_kill answers */
	/* The kernel's rule: a siginfo claiming to come from the kernel or
	 * from tkill goes only to the sender itself. */
	if (info && (info->si_code >= 0 || info->si_code == SI_TKILL) && gp != getg())
		return -EPERM;
	struct g *self = gmp_sig_sender(gp);
	if (sig == 0)
		return 0;
	if (info == NULL)
		return -gmp_sig_send(self, gp, sig);
	struct gmp_fwdinfo fi = gmp_fwdinfo_of(info);
	return -gmp_sig_send_info(self, gp, sig, &fi);
}

/* Pinned as for a forward: the thread found by its TID may exit and its
 * G become a new thread's between the lookup and the send, which then
 * went to the new thread. */
int gmp_sig_tid_send(pid_t tid, int sig, const siginfo_t *info)
{
	struct g *gp = tid > 0 ? gmp_tid_g(tid) : NULL;
	if (gp == NULL || (gp->flags & G_FOREIGN))
		return 1;
	__atomic_add_fetch(&gp->fwdpins, 1, __ATOMIC_SEQ_CST);
	int r = tid_send(tid, gp, sig, info);
	__atomic_sub_fetch(&gp->fwdpins, 1, __ATOMIC_RELEASE);
	return r;
}

/* The waits a signal ends natively (a mutex, condition or join wait goes
 * on after the handler, or returns as if woken spuriously). */
static bool ends_for_signal(enum waitreason why)
{
	return why == WAIT_SLEEP || why == WAIT_IO_READ || why == WAIT_IO_WRITE || why == WAIT_SELECT ||
	       why == WAIT_SEMA;
}

/* park_m, on g0, once gp is parked: a signal sent while it was on its way
 * to sleep found it still running, or a handler ran earlier in the same
 * blocking call; see to it now. */
void gmp_sig_parked(struct m *mp, struct g *gp)
{
	if ((__atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & ~gp->sigmask) ||
	    (gmp_sig_handled_in_call(gp) && ends_for_signal(gp->waitreason)))
		interrupt_parked(mp, gp);
	else
		gmp_cancel_parked(mp, gp);
}

/* A blocking call that takes a signal mask for its duration (ppoll,
 * pselect, epoll_pwait, sigsuspend).  The mask becomes the G's for the
 * call, and the kernel gets it less the runtime's signal, so the call can
 * still be rescued or reached by pthread_kill.  Signals already pending on
 * the G that the mask lets in are raised on the M first, while still
 * blocked there: the call finds them pending and ends with EINTR after
 * their handler, as natively.  The G cannot move to another M in between:
 * it is in the syscall state from here to gmp_sig_masked_exit. */
void gmp_sig_masked_enter(struct gmp_sigcall *c, const void *mask)
{
	struct g *gp = getg();
	uint64_t m;
	memcpy(&m, mask, sizeof m);
	m &= ~never_blocked;
	c->kmask = m & ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	c->entered = entersyscall();
	c->saved = gp->sigmask;
	__atomic_store_n(&gp->sigmask, m, __ATOMIC_SEQ_CST);
	__atomic_store_n(&gp->sigmasked, true, __ATOMIC_RELEASE);
	uint64_t let, done = 0;
	while ((let = __atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) & ~m & ~done) != 0) {
		int sig = __builtin_ctzll(let) + 1;
		if (gmp_sig_queues(sig)) {
			/* One per call, as deliver raises them. */
			if (!gmp_sigq_raise_next(gp, sig, &done))
				done |= SIGBIT(sig);
			continue;
		}
		__atomic_and_fetch(&gp->sigpending, ~SIGBIT(sig), __ATOMIC_SEQ_CST);
		__atomic_and_fetch(&gp->sigfromproc, ~SIGBIT(sig), __ATOMIC_SEQ_CST);
		gmp_syscall(SYS_tgkill, gmp_pid, gp->m->tid, sig);
	}
}

void gmp_sig_masked_exit(struct gmp_sigcall *c)
{
	struct g *gp = getg();
	__atomic_store_n(&gp->sigmasked, false, __ATOMIC_RELEASE);
	__atomic_store_n(&gp->sigmask, c->saved, __ATOMIC_SEQ_CST);
	if (c->entered)
		exitsyscall();
}
