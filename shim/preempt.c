/* Preemption (proc.go: preemptone, preemptM, doSigPreempt, gopreempt_m).
 *
 * sysmon marks a G that has run past its time slice (g->preempt) and, if
 * its M is running user code, signals the M.  The handler stops the G
 * only at an async-safe point: the G is running with a P, the signal
 * landed on the G's own stack (not an alternate signal stack, not g0), and
 * the interrupted pc is in the program's code (textmap.c).  There the G is
 * switched out from inside the handler: its full register and FPU/AVX
 * state stays in the kernel's signal frame on its stack, and when the G is
 * next scheduled, on whatever M, it returns from the handler and
 * rt_sigreturn restores all of it.  Anywhere else the mark stays, and the
 * G yields at its next cooperative preemption point (gmp_preempt_point).
 *
 * The runtime's signal (SIGURG unless GMP_PREEMPTSIG says otherwise)
 * carries three requests, told apart by a tag only this process knows:
 * preempt, rescue (rescue.c) and deliver-pending-signals (gsignal.c).  Any
 * other instance of that signal belongs to the program and goes to the
 * action the program set (interpose/signal.c keeps it here). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "compat/realsym.h"
#include "cancel.h"
#include "gsigstack.h"
#include "runtime.h"
#include "sigmask.h"
#include "sigwake.h"
#include "textmap.h"

int gmp_preemptsig = SIGURG;
int64_t gmp_timeslice_ns = 2000000;
bool gmp_asyncpreemptoff;

int gmp_pid;
static uint32_t cookie;
static struct sigaction user_act; /* the program's action for gmp_preemptsig */

static void on_runtime_signal(int sig, siginfo_t *si, void *uc);

void gmp_preempt_init(void)
{
	gmp_textmap_refresh();
	gmp_pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
	cookie = (uint32_t)(gmp_nanotime() * 2654435761u) | 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_runtime_signal;
	/* SA_RESTART: a blocking call the signal interrupts is restarted, so
	 * the program never sees EINTR from the runtime.  No SA_ONSTACK: the
	 * handler must run on the stack of the G it interrupted. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	void *gmp_dlsym_next(const char *name);
	int (*real_sigaction)(int, const struct sigaction *, struct sigaction *) = gmp_dlsym_next("sigaction");
	/* The program may have set its action before we started. */
	real_sigaction(gmp_preemptsig, &sa, &user_act);
	gmp_sig_unblockable(gmp_preemptsig, true);
}

void gmp_preempt_fork(void)
{
	gmp_pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
}

bool gmp_sigsend(struct m *mp, enum gmp_sigreq req)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = gmp_preemptsig;
	si.si_code = SI_QUEUE;
	si.si_pid = gmp_pid;
	si.si_value.sival_ptr = (void *)(((uintptr_t)cookie << 8) | (uintptr_t)req);
	return gmp_syscall6(SYS_rt_tgsigqueueinfo, gmp_pid, mp->tid, gmp_preemptsig, (long)&si, 0, 0) == 0;
}

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

/* The G this M was running when the signal landed, if the signal landed
 * on that G's own stack while the G was on this M: on g0 the FS base may
 * still name the last G. */
struct g *gmp_signal_g(void *uc)
{
	struct g *gp = getg();
	if (gp == NULL)
		return NULL;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	if (sp < (uintptr_t)gp->stack_lo || sp >= (uintptr_t)gp->stack_lo + gp->stack_size)
		return NULL;
	struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL || __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) != gp)
		return NULL;
	return gp;
}

/* The M's side of a preemption request (proc.go: doSigPreempt). */
static void async_preempt(void *ucv)
{
	struct g *gp = gmp_signal_g(ucv);
	struct m *mp = gp ? gp->m : gmp_signal_g0(ucv);
	if (mp)
		__atomic_store_n(&mp->preemptsent, 0, __ATOMIC_RELEASE);
	if (gp == NULL)
		return;
	if (!__atomic_load_n(&gp->preempt, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING || mp->p == NULL)
		return;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(ucv, &pc, &sp);
	if (!gmp_pc_async_safe(pc))
		return; /* it yields at its next preemption point */
	gp->preempt = 0;
	if (gmp_nothing_else(mp->p))
		return; /* it would only be resumed at once */
	/* The handler runs with every signal blocked; the next G on this M
	 * must run with its own mask, not that one. */
	ucontext_t *uc = ucv;
	uint64_t mask;
	memcpy(&mask, &uc->uc_sigmask, sizeof mask);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&mask, 0, 8, 0, 0);
	mp->sigmask = mask;
	/* A handler let in by that (the dump's, waiting for the loader's
	 * lock) may have been taken for a blocking call by sysmon, and the G
	 * put in a system call, its P handed off: then it stays there. */
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING || mp->p == NULL)
		return;
	/* To the global queue, behind everything queued locally (proc.go:
	 * gopreempt_m). */
	mp->p->ctr.preempts++;
	mcall(gosched_m, NULL);
	/* Resumed, perhaps on another M: returning from the handler restores
	 * every register and the mask of the moment of interruption. */
	getg()->m->sigmask = mask;
	gmp_altstack_to_uc(getg()->m, ucv);
}

/* A G marked for preemption yields here, at an entry into the shim where
 * it holds no runtime lock. */
void gmp_preempt_yield(void)
{
	struct g *gp = getg();
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING)
		return;
	/* An asynchronous cancellation the handler could not act on. */
	uint32_t ch = gmp_cancel_word(gp);
	if (gmp_cancel_due(ch) && (ch & CH_ASYNC))
		gmp_cancel_act();
	gp->preempt = 0;
	gp->m->p->ctr.preempts++;
	gosched();
}

void gmp_rescue_signal(void *uc);
void gmp_sigmask_idle_signal(void *uc);
void gmp_sig_deliver_pending(void);

/* The runtime's signal is a standard one: a request sent while another is
 * pending merges with it, and only the first one's siginfo arrives.  So
 * the handler does not trust the request kind: it checks every kind of
 * work against the state sysmon or the sender left, the switch-out of a
 * preemption last. */
static void on_runtime_signal(int sig, siginfo_t *si, void *uc)
{
	uintptr_t tag = (uintptr_t)si->si_value.sival_ptr;
	if (si->si_code == SI_QUEUE && si->si_pid == gmp_pid && (uint32_t)(tag >> 8) == cookie) {
		int saved = errno;
		gmp_dump_serve_stop(uc);
		gmp_rescue_signal(uc);
		gmp_sigmask_idle_signal(uc);
		struct g *gp = gmp_signal_g(uc);
		if (gp && gmp_sig_deliverable(gp))
			gmp_sig_deliver_pending();
		gmp_cancel_signal(uc);
		async_preempt(uc);
		errno = saved;
		return;
	}
	gmp_preempt_handler_chain(sig, si, uc);
}

/* An instance of the runtime's signal that is not ours goes where the
 * program asked. */
void gmp_preempt_handler_chain(int sig, void *info, void *uc)
{
	struct g *gp = gmp_signal_g(uc);
	if (gp)
		gp->nhandled++;
	struct sigaction *ua = &user_act;
	/* Counted as a running handler of the program, as the trampoline
	 * counts the others: a sem_post in it must not take locks. */
	__atomic_add_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
	if (ua->sa_flags & SA_SIGINFO) {
		if (ua->sa_sigaction)
			ua->sa_sigaction(sig, info, uc);
	} else if (ua->sa_handler != SIG_DFL && ua->sa_handler != SIG_IGN) {
		ua->sa_handler(sig);
	}
	__atomic_sub_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
}

/* sigaction for the runtime's signal, from the program: the kernel keeps
 * our handler; the program's action is stored and reported back. */
void gmp_preemptsig_action(const struct sigaction *act, struct sigaction *old)
{
	struct sigaction prev = user_act;
	if (act)
		user_act = *act;
	if (old)
		*old = prev;
}

/* Whether a siginfo is one of the runtime's own requests (sigwait and
 * signalfd readers must never see them). */
bool gmp_sig_is_runtime(const siginfo_t *si)
{
	uintptr_t tag = (uintptr_t)si->si_value.sival_ptr;
	return si->si_signo == gmp_preemptsig && si->si_code == SI_QUEUE && si->si_pid == gmp_pid &&
	       (uint32_t)(tag >> 8) == cookie;
}
