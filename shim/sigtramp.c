/* The program's signal handlers run through one trampoline, so that a
 * signal the kernel hands to an M without a G (asleep, or between two Gs
 * on g0) reaches a thread of the program instead of running on the M's
 * own TLS.  That matters when the thread meant to see it is parked: a
 * main thread asleep in select or nanosleep must get EINTR when Ctrl-C
 * arrives (Python's KeyboardInterrupt, event loops that check a flag).
 *
 * A process-directed signal goes to the main thread if that thread takes
 * it, as the kernel prefers it: the signal goes pending on main's G (with
 * the sender's siginfo kept aside), which interrupts its wait, and main
 * raises it on itself and handles it with that siginfo.  If main blocks it
 * and it landed on an M without a G, it goes the same way to another G
 * that takes it.  Faults, signals sent to one thread, the CPU-time
 * signals the kernel sends to the thread that ran (a profiler's SIGPROF),
 * and a signal no G takes run the handler where they landed: at once in a
 * G's context, as the kernel would have run it, unless the G is in the
 * runtime's own code (gmp_sig_must_wait: then it waits on the G); on g0
 * with the M's own TLS. */
#include <signal.h>
#include <sys/syscall.h>
#include <string.h>
#include <ucontext.h>

#include "arch.h"
#include "foreign.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "gsigq.h"
#include "lock.h"
#include "registry.h"
#include "rtsig.h"
#include "runtime.h"
#include "sigtramp.h"
#include "sigwake.h"
#include "sys.h"
#include "textmap.h"

static struct sigaction actions[65]; /* the program's, for every signal */
static struct mutex actlock;

struct sigaction *gmp_sigtramp_action(int sig)
{
	return &actions[sig];
}

void gmp_sigtramp_kernel_action(struct sigaction *k)
{
	k->sa_sigaction = gmp_sigtramp;
	/* A one-shot action is reset by the trampoline when the handler runs
	 * (it may first have to forward the signal to the thread that takes
	 * it), not by the kernel.  Every frame lands on the M's own stack,
	 * with every signal blocked until it has moved to the G's stacks
	 * (gsigstack.c); the program's handler gets the program's mask
	 * (call_handler). */
	k->sa_flags = (k->sa_flags | SA_SIGINFO | SA_ONSTACK) & ~SA_RESETHAND;
	sigfillset(&k->sa_mask);
}

void gmp_sigtramp_lock(void)
{
	lock(&actlock);
}

void gmp_sigtramp_unlock(void)
{
	unlock(&actlock);
}

/* The kernel's struct sigaction (rt_sigaction). */
struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

/* SA_RESETHAND, done here rather than by the kernel: the instance that
 * runs the handler claims it, and the action becomes SIG_DFL, ours and
 * the kernel's, before the handler runs, as the kernel would do.  An
 * instance that finds it claimed meets the default action. */
static bool claim_oneshot(int sig, struct sigaction *copy)
{
	struct sigaction *a = &actions[sig];
	void *h = __atomic_load_n((void **)&a->sa_handler, __ATOMIC_ACQUIRE);
	if (h == (void *)SIG_DFL || h == (void *)SIG_IGN ||
	    !__atomic_compare_exchange_n((void **)&a->sa_handler, &h, (void *)SIG_DFL, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return false;
	*copy = *a;
	copy->sa_handler = (void (*)(int))h;
	a->sa_flags &= ~(SA_SIGINFO | SA_RESETHAND);
	/* The kernel resets only the handler: the flags and the mask read
	 * back as the program set them, with what glibc added installing
	 * our trampoline (x86_64's SA_RESTORER and restorer).  A program
	 * that installed another action meanwhile keeps it. */
	struct ksigaction cur;
	if (gmp_syscall6(SYS_rt_sigaction, sig, 0, (long)&cur, 8, 0, 0) != 0 || cur.handler != (void *)gmp_sigtramp)
		return true;
	unsigned long mine = (unsigned long)(unsigned)copy->sa_flags;
	struct ksigaction dfl = { (void *)SIG_DFL, mine | (cur.flags & ~(mine | SA_SIGINFO | SA_ONSTACK)), cur.restorer,
				  0 };
	memcpy(&dfl.mask, &copy->sa_mask, sizeof dfl.mask);
	gmp_syscall6(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0, 0);
	return true;
}

/* What the kernel would have blocked for the handler (the thread's mask
 * when the signal came, the action's, the signal unless SA_NODEFER), less
 * the runtime's own signals; the trampoline's action blocked everything.
 * The thread's mask is the context's, but in a call that takes a mask of
 * its own (sigsuspend, ppoll, pselect, epoll_pwait): there the context
 * holds the mask the call restores, and the call's is the G's
 * (gmp_sig_masked_enter).  LTP's sigsuspend/1-1: a signal the call's mask
 * blocked ran inside the handler of the one that ended it. */
static void block_for_handler(int sig, const struct sigaction *a, struct g *gp, void *uc)
{
	uint64_t mask, add;
	memcpy(&mask, &((ucontext_t *)uc)->uc_sigmask, sizeof mask);
	if (gp && __atomic_load_n(&gp->sigmasked, __ATOMIC_ACQUIRE))
		mask = __atomic_load_n(&gp->sigmask, __ATOMIC_ACQUIRE);
	memcpy(&add, &a->sa_mask, sizeof add);
	mask |= add;
	if (!(a->sa_flags & SA_NODEFER))
		mask |= SIGBIT(sig);
	mask &= ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&mask, 0, 8, 0, 0);
}

/* Returns the flags of the action it ran. */
static int call_handler(int sig, siginfo_t *si, void *uc)
{
	struct sigaction oneshot, *a = &actions[sig];
	if (__builtin_expect(a->sa_flags & SA_RESETHAND, 0)) {
		if (!claim_oneshot(sig, &oneshot)) {
			/* Claimed by another instance: the default action, now
			 * the kernel's. */
			gmp_syscall(SYS_tgkill, gmp_pid, gmp_syscall(SYS_gettid, 0, 0, 0), sig);
			return SA_RESTART;
		}
		a = &oneshot;
	}
	/* While a handler of the program runs, sem_post defers its wake-ups
	 * instead of taking locks this thread may hold (sigwake.c).  One that
	 * runs on top of the runtime's own code, which may hold its P's state
	 * in registers, must not lose the P to sysmon (rescue.c). */
	struct g *gp = gmp_signal_g(uc);
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	bool overshim = gp && gmp_pc_in_shim(pc);
	if (overshim)
		__atomic_add_fetch(&gp->shimhandlers, 1, __ATOMIC_SEQ_CST);
	int flags = a->sa_flags;
	if (a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN)
		block_for_handler(sig, a, gp, uc);
	__atomic_add_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else if (a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN)
		a->sa_handler(sig);
	else
		flags |= SA_RESTART; /* nothing ran, nothing to interrupt */
	__atomic_sub_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
	if (overshim)
		__atomic_sub_fetch(&gp->shimhandlers, 1, __ATOMIC_SEQ_CST);
	return flags;
}

/* A signal the kernel raises for what this very thread did: it must be
 * handled where it happened. */
static bool synchronous(int sig, const siginfo_t *si)
{
	return si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
				   sig == SIGTRAP || sig == SIGSYS);
}

/* Sent by the kernel to the thread whose CPU time made it due, which is
 * the thread it landed on (posix-cpu-timers.c: ITIMER_PROF's SIGPROF and
 * ITIMER_VIRTUAL's SIGVTALRM, RLIMIT_CPU's SIGXCPU), not to the main
 * thread first as a kill() is: a sampling profiler's handler records the
 * thread and the context it interrupted.  Forwarded to main, the samples
 * all named main, and each cut main's sleep short
 * (tests/integration/signal_cputimer: main got all 200 samples, the four
 * spinning workers none). */
static bool for_running_thread(int sig, const siginfo_t *si)
{
	return si->si_code == SI_KERNEL && (sig == SIGPROF || sig == SIGVTALRM || sig == SIGXCPU);
}

/* Hands a process-directed signal to gp if that thread takes it: pending
 * on its G with the sender's siginfo kept aside, which interrupts its
 * wait; it raises the signal on itself and handles it with that siginfo. */
static bool forward_to(struct g *gp, int sig, const siginfo_t *si)
{
	struct gmp_fwdinfo f = gmp_fwdinfo_of(si);
	return gmp_sig_forward(gp, sig, &f);
}

static bool forward_to_main(int sig, const siginfo_t *si)
{
	return forward_to(&gmp_main_g, sig, si);
}

struct taker {
	int sig;
	const siginfo_t *si;
	bool done;
};

static void try_taker(struct g *gp, void *arg)
{
	struct taker *t = arg;
	if (!t->done && gp != &gmp_main_g)
		t->done = forward_to(gp, t->sig, t->si);
}

/* Landed on an M without a G while main blocks it: the kernel would have
 * picked some thread that takes it, so some G that takes it gets it (the
 * registry walk takes no lock: this handler may have interrupted its
 * holder). */
static bool forward_to_taker(int sig, const siginfo_t *si)
{
	struct taker t = { sig, si, false };
	gmp_registry_foreach_unlocked(try_taker, &t);
	return t.done;
}

/* Process-directed signals that went back to the process with kill()
 * (gmp_sigtramp_retarget), and the senders they came from. */
static uint64_t reraised;
static struct gmp_fwdinfo reraised_from[64];

void gmp_sigtramp_retarget(int sig, const struct gmp_fwdinfo *f)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	gmp_fwdinfo_apply(&si, f);
	if (forward_to_main(sig, &si) || forward_to_taker(sig, &si))
		return;
	/* Every thread blocks it: pending on the process, in the kernel's
	 * queue, which every M blocks it in too (gsignal.c, idle_mask).  The
	 * kernel takes the sender's siginfo from us only for a code below 0
	 * (sigqueue's), other than tkill's. */
	if (f->code < 0 && f->code != SI_TKILL &&
	    gmp_syscall(SYS_rt_sigqueueinfo, gmp_pid, sig, (long)&si) == 0)
		return;
	reraised_from[sig - 1] = *f;
	__atomic_or_fetch(&reraised, SIGBIT(sig), __ATOMIC_SEQ_CST);
	gmp_syscall(SYS_kill, gmp_pid, sig, 0);
}

void gmp_sigtramp_sender(int sig, siginfo_t *si)
{
	if (si->si_code != SI_USER || si->si_pid != gmp_pid ||
	    !(__atomic_fetch_and(&reraised, ~SIGBIT(sig), __ATOMIC_SEQ_CST) & SIGBIT(sig)))
		return;
	gmp_fwdinfo_apply(si, &reraised_from[sig - 1]);
}

static void sigtramp_body(int sig, siginfo_t *si, void *uc)
{
	if (__builtin_expect(gmp_sig_is_runtime(si), 0)) {
		gmp_rtsig_dispatch(sig, si, uc); /* sent before the runtime moved off sig */
		return;
	}
	if (__builtin_expect(__atomic_load_n(&reraised, __ATOMIC_RELAXED) != 0, 0))
		gmp_sigtramp_sender(sig, si);
	struct g *gp = gmp_signal_g(uc);
	/* A real-time signal a G raised on itself with its instance's
	 * siginfo (gsigq.c), or with tkill's. */
	bool own = gmp_sig_queues(sig) && (gmp_sigq_unwrap(gp, si) || si->si_code == SI_TKILL);
	/* The kernel gives a process-directed signal to the main thread when
	 * that thread takes it, and so do we: the kernel's main thread is
	 * just some M, which may be running any G or none. */
	bool process = !own && !synchronous(sig, si) && si->si_code != SI_TKILL && !for_running_thread(sig, si);
	if (gp != NULL && !synchronous(sig, si)) {
		bool raised = __atomic_fetch_and(&gp->sigraised, ~SIGBIT(sig), __ATOMIC_SEQ_CST) & SIGBIT(sig);
		if (__builtin_expect(gp->sighold, 0) || gmp_sig_must_wait(gp, uc, raised)) {
			/* A process-directed one goes where it would from g0:
			 * this G may block it (its M's mask lags behind its own). */
			if (!process || !(forward_to_main(sig, si) || forward_to_taker(sig, si)))
				gmp_sig_hold_signal(gp, sig, si, process, own);
			return;
		}
	}
	if (gp != NULL) {
		/* Raised by the G itself for a signal forwarded to it: the
		 * sender's siginfo, not that of our tgkill.  (A real-time
		 * signal's fwd slot is its next instance's by then.) */
		if (!own && si->si_code == SI_TKILL && (__atomic_load_n(&gp->fwdmask, __ATOMIC_SEQ_CST) & SIGBIT(sig))) {
			__atomic_and_fetch(&gp->fwdmask, ~SIGBIT(sig), __ATOMIC_SEQ_CST);
			gmp_fwdinfo_apply(si, &gp->fwd[sig - 1]);
		} else if (process && gp != &gmp_main_g && forward_to_main(sig, si)) {
			return;
		}
		struct gmp_hmask before = gmp_sig_handler_enter(gp, uc);
		gp->nhandled++;
		gp->inhandler++;
		gmp_sig_handled(gp, call_handler(sig, si, uc));
		gp->inhandler--;
		gmp_sig_handler_return(uc, before);
		return;
	}
	struct m *idle = gmp_sigmask_tramp_enter(uc);
	if (!process || gmp_other_process || !(forward_to_main(sig, si) || forward_to_taker(sig, si))) {
		/* Run here.  On g0 the handler gets the M's own TLS, and the
		 * shim's calls it makes see no G and act on this OS thread. */
		struct gmp_g0tls t = gmp_g0tls_enter(uc);
		(void)call_handler(sig, si, uc);
		gmp_g0tls_leave(t);
	}
	gmp_sigmask_tramp_leave(idle, uc);
}

void gmp_sigtramp(int sig, siginfo_t *si, void *uc)
{
	bool onstack = gmp_sig_is_runtime(si) || (actions[sig].sa_flags & SA_ONSTACK);
	gmp_sigstack_enter(sig, si, uc, onstack, sigtramp_body, __builtin_return_address(0));
	sigtramp_body(sig, si, uc);
}
