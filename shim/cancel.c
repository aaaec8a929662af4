/* pthread_cancel's delivery (nptl/pthread_cancel.c's counterpart).
 *
 * The request is glibc's CANCELED bit in the target's TCB.  A deferred
 * cancellation is acted on by the target itself at a cancellation point
 * (GMP_CANCEL_POINT in cancel.h); the canceller's only job is to end the
 * wait of a target that is inside one already: cancelkick tells the
 * target's loops not to wait again, then
 *   - a parked G is taken out of its wait queue with EINTR (as for a
 *     signal, gmp_wake_interrupted), or by sysmon from a signal handler;
 *     park_m checks again once the G is parked, for a G on its way to sleep;
 *   - a G in a system call (its M blocked in the kernel) has its M sent the
 *     runtime's signal: the handler moves a call that is about to start or
 *     to be restarted to its cancelled exit (arch/x86_64/syscall_cancel.S),
 *     and a call the kernel ended returns EINTR;
 *   - a running G gets to the point's end and acts there.
 * An asynchronous cancellation also signals a running G's M: the handler
 * acts at once if the pc is an async-safe point (the preemption rule:
 * the program's own code), else the G acts at its next preemption point. */
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch.h"
#include "cancel.h"
#include "compat/tls.h"
#include "compat/unwind_exit.h"
#include "rtsig.h"
#include "runtime.h"
#include "sema.h"
#include "sigwake.h"
#include "sys.h"
#include "textmap.h"

void gmp_cancel_act(void)
{
	gmp_exit_unwind(PTHREAD_CANCELED);
}

void gmp_main_adopt_record(void)
{
	struct g *gp = getg();
	if (gp != NULL && (gp->flags & G_MAIN))
		gmp_unwind_adopt_main();
}

/* Whether a cancellation should end gp's park: a deferred one only ends a
 * wait that acts on it (a cancellation point's own), never a lock wait
 * inside one (a condvar's relock), which would only park again, and be
 * woken again, until the lock is free. */
static bool ends_park(struct g *gp, uint32_t ch)
{
	if (ch & CH_ASYNC)
		return true; /* the wait's loop acts: gmp_cancel_async_point */
	switch (__atomic_load_n(&gp->waitreason, __ATOMIC_RELAXED)) {
	case WAIT_MUTEX:
	case WAIT_RWLOCK:
	case WAIT_BARRIER:
	case WAIT_ONCE:
		return false;
	default:
		return true;
	}
}

static void interrupt(struct g *self, struct g *gp)
{
	if (self && __atomic_load_n(&gmp_sigdepth, __ATOMIC_SEQ_CST) == 0)
		gmp_wake_interrupted(gp, self->m);
	else
		gmp_sigwake_interrupt(gp);
}

int gmp_cancel(struct g *gp)
{
	uint32_t *chp = gmp_tls_cancelhandling(gp->tcb);
	uint32_t old = __atomic_fetch_or(chp, CH_CANCELED, __ATOMIC_SEQ_CST);
	if (old & (CH_CANCELED | CH_EXITING | CH_TERMINATED))
		return 0; /* already requested, or the thread is on its way out */
	if (old & CH_DISABLED)
		return 0; /* pending until it enables cancellation */
	struct g *self = getg();
	if (gp == self) {
		if (old & CH_ASYNC)
			gmp_cancel_act();
		return 0; /* at its next cancellation point */
	}
	bool async = old & CH_ASYNC;
	if (!async && __atomic_load_n(&gp->cancelpoint, __ATOMIC_SEQ_CST) == 0)
		return 0; /* it sees the bit when it enters one */
	__atomic_store_n(&gp->cancelkick, 1, __ATOMIC_SEQ_CST);
	if (async)
		__atomic_store_n(&gp->preempt, 1, __ATOMIC_SEQ_CST);
	switch (__atomic_load_n(&gp->status, __ATOMIC_SEQ_CST)) {
	case G_RUNNING:
		if (!async)
			break; /* it acts at the end of the point it is in */
		/* fall through */
	case G_SYSCALL: {
		struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
		if (mp)
			gmp_sigsend(mp, SIGREQ_CANCEL);
		break;
	}
	case G_WAITING:
		if (ends_park(gp, old | CH_CANCELED))
			interrupt(self, gp);
		break;
	default:
		break; /* runnable: it checks when it runs on */
	}
	return 0;
}

/* park_m, once gp is parked (or sysmon for a handler's request): a cancel
 * that found it still on its way to sleep. */
void gmp_cancel_parked(struct m *mp, struct g *gp)
{
	if (gmp_cancel_requested(gp) && ends_park(gp, gmp_cancel_word(gp)))
		gmp_wake_interrupted(gp, mp);
}

/* The M's side of SIGREQ_CANCEL, in the runtime's signal handler. */
void gmp_cancel_signal(void *ucv)
{
	struct g *gp = gmp_signal_g(ucv);
	if (gp == NULL || !__atomic_load_n(&gp->cancelkick, __ATOMIC_SEQ_CST))
		return;
	uint32_t ch = gmp_cancel_word(gp);
	if (!gmp_cancel_due(ch))
		return;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(ucv, &pc, &sp);
	if (pc >= (uintptr_t)gmp_syscall_cancel_begin && pc < (uintptr_t)gmp_syscall_cancel_end) {
		gmp_arch_signal_set_pc(ucv, (uintptr_t)gmp_syscall_cancel_kicked);
		return;
	}
	if (!(ch & CH_ASYNC))
		return;
	uint32_t st = __atomic_load_n(&gp->status, __ATOMIC_RELAXED);
	if (!gmp_pc_in_shim(pc) && (st == G_SYSCALL || gmp_arch_signal_in_syscall(ucv))) {
		/* In a system call of glibc's own: one of its cancellation
		 * points that we do not interpose (stdio's reads, tcdrain...)
		 * or a call it makes between our entersyscall and
		 * exitsyscall (a process-shared wait).  glibc made the call
		 * asynchronously cancelable around the system call
		 * (__pthread_enable_asynccancel), and NPTL's SIGCANCEL handler
		 * would act here.  (A program's own asynchronous type allows
		 * only pthread_cancel, setcancelstate and setcanceltype, all of
		 * them ours, so inside libc the type is glibc's.)  A G in the
		 * syscall state goes on without its P, as one rescued from a
		 * blocking call: its next entry into the shim takes one back. */
		if (st == G_SYSCALL)
			gp->rescued = true;
	} else if (st != G_RUNNING || gp->m->p == NULL || !gmp_pc_async_safe(pc)) {
		return; /* at its next preemption point (gp->preempt is set) */
	}
	/* The handler runs with every signal blocked; the unwind leaves it by
	 * a longjmp that restores no mask, so give the M the G's mask now. */
	ucontext_t *uc = ucv;
	uint64_t mask;
	__builtin_memcpy(&mask, &uc->uc_sigmask, sizeof mask);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&mask, 0, 8, 0, 0);
	gp->m->sigmask = mask;
	gmp_cancel_act();
}
