/* The runtime's signal (SIGURG unless GMP_PREEMPTSIG says otherwise) and
 * the requests it carries, told apart from the program's own instances by
 * a tag only this process knows: preempt (preempt.c), rescue (rescue.c),
 * deliver pending signals and reload an idle M's mask (gsignal.c), stop
 * for a dump (gdump.c), act on a cancellation (cancel.c).  Any other
 * instance of that signal belongs to the program and goes to the action
 * the program set (interpose/signal.c keeps it here). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

#include "arch.h"
#include "cancel.h"
#include "compat/debug.h"
#include "compat/realsym.h"
#include "dumpsig.h"
#include "gdump.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "lock.h"
#include "preempt.h"
#include "rtsig.h"
#include "runtime.h"
#include "sigtramp.h"
#include "sigwake.h"
#include "stack.h"
#include "sys.h"
#include "textmap.h"
#include "timer.h"

int gmp_preemptsig = SIGURG;
bool gmp_preemptsig_fixed;
int gmp_pid;
static uint32_t cookie;
static struct sigaction user_act; /* the program's action for gmp_preemptsig */
static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);

static void on_runtime_signal(int sig, siginfo_t *si, void *uc);
static void runtime_signal(int sig, siginfo_t *si, void *uc);
static bool sigsend_on(int sig, struct m *mp, enum gmp_sigreq req);

/* The runtime's handler on sig, which no thread blocks from now on; the
 * action it replaces in *old. */
static void install_on(int sig, struct sigaction *old)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = runtime_signal;
	/* SA_RESTART: a blocking call the signal interrupts is restarted, so
	 * the program never sees EINTR from the runtime.  SA_ONSTACK, as Go
	 * installs its handlers: a thread that set an alternate stack may run
	 * code whose stack pointer no signal frame may go below.  beam.smp's
	 * JIT runs Erlang code on the process's own stack, right above its
	 * heap, and gives every thread an alternate stack and every action
	 * SA_ONSTACK: the runtime's frames written below that stack pointer
	 * overwrote Erlang heaps (beam.smp crashed in 8 runs of 12 at 1 P). */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	real_sigaction(sig, &sa, old);
	gmp_sig_unblockable(sig, true);
}

void gmp_rtsig_init(void)
{
	gmp_textmap_refresh();
	gmp_pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
	cookie = (uint32_t)(gmp_nanotime() * 2654435761u) | 1;
	real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))gmp_dlsym_next("sigaction");
	/* The program may have set its action before we started. */
	install_on(gmp_preemptsig, &user_act);
}

static struct mutex movelock;

/* Whether signal s can be sent at all.  qemu-user runs the program's
 * realtime signals on the host's, which has none left for the top two: it
 * accepts and reports their actions, but a thread sent one gets nothing
 * (the host refuses the number it maps it to).  So this thread sends s to
 * itself with s blocked, and takes it back at once: the action (the
 * default: the end of the process) never runs. */
static bool sendable(int s)
{
	uint64_t bit = 1ull << (s - 1), old;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, (long)&bit, (long)&old, 8, 0, 0);
	bool sent = gmp_syscall(SYS_tgkill, gmp_pid, gmp_syscall(SYS_gettid, 0, 0, 0), s) == 0;
	if (sent)
		gmp_syscall6(SYS_rt_sigtimedwait, (long)&bit, 0, (long)&(struct timespec){ 0, 0 }, 8, 0, 0);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
	return sent;
}

/* A realtime signal with no action but the default, of the program's or
 * the dump's, highest first; 0: none. */
static int free_rtsig(void)
{
	for (int s = SIGRTMAX; s >= SIGRTMIN; s--) {
		struct sigaction cur;
		if (gmp_dump_signal_owned(s) || real_sigaction(s, NULL, &cur) != 0)
			continue;
		if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL && sendable(s))
			return s;
	}
	return 0;
}

/* A request sent before the move may still arrive on the old signal: the
 * trampoline hands it here.  And an M whose kernel mask blocks the new
 * signal (its G blocks every signal) hears of the move on the old one:
 * any request unblocks the runtime's signals in the context it returns
 * to. */
bool gmp_rtsig_move(int sig, struct sigaction *prev)
{
	if (gmp_preemptsig_fixed)
		return false;
	lock(&movelock);
	int to = __atomic_load_n(&gmp_preemptsig, __ATOMIC_ACQUIRE) == sig ? free_rtsig() : 0;
	if (to == 0) {
		unlock(&movelock);
		return false;
	}
	struct sigaction was = user_act;
	install_on(to, &user_act);
	__atomic_store_n(&gmp_preemptsig, to, __ATOMIC_RELEASE);
	gmp_sig_unblockable(sig, false);
	/* This M now blocks sig if its G does; the others when they next
	 * load a G's mask or go idle. */
	struct g *gp = getg();
	struct m *self = gp ? gp->m : NULL;
	if (self)
		gmp_sigmask_load(self, gp);
	*prev = was;
	for (struct m *mp = __atomic_load_n(&sched.allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink)
		if (mp->tid != 0 && !mp->gone && mp != self)
			sigsend_on(sig, mp, SIGREQ_IDLEMASK);
	unlock(&movelock);
	gmp_unsupported("the program takes the runtime's signal (a handler, signalfd or sigwait): the runtime "
			"moved to a realtime one");
	return true;
}

bool gmp_rtsig_take_sync(const sigset_t *set)
{
	int sig = __atomic_load_n(&gmp_preemptsig, __ATOMIC_ACQUIRE);
	if (!gmp_initialized || !sigismember(set, sig))
		return true; /* before start-up the signal is nobody's yet */
	struct sigaction prev;
	if (sig != SIGURG || !gmp_rtsig_move(sig, &prev))
		return false;
	/* The trampoline, not the program's SIG_DFL, stays the kernel's
	 * action: requests sent before the move still arrive on sig, and an
	 * M that has not reloaded its mask yet still takes it. */
	gmp_sigtramp_lock();
	*gmp_sigtramp_action(sig) = prev;
	struct sigaction k = prev;
	gmp_sigtramp_kernel_action(&k);
	real_sigaction(sig, &k, NULL);
	gmp_sigtramp_unlock();
	return true;
}

void gmp_rtsig_fork(void)
{
	gmp_pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
}

static bool sigsend_on(int sig, struct m *mp, enum gmp_sigreq req)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = gmp_pid;
	si.si_value.sival_ptr = (void *)(((uintptr_t)cookie << 8) | (uintptr_t)req);
	return gmp_syscall6(SYS_rt_tgsigqueueinfo, gmp_pid, mp->tid, sig, (long)&si, 0, 0) == 0;
}

bool gmp_sigsend(struct m *mp, enum gmp_sigreq req)
{
	return sigsend_on(__atomic_load_n(&gmp_preemptsig, __ATOMIC_ACQUIRE), mp, req);
}

/* The G this M was running when the signal landed, if the signal landed
 * on that G's own stack while the G was on this M: on g0 the FS base may
 * still name the last G.  Or on its alternate stack, in a handler of its,
 * but for the G's switch to g0 (mcall, after_switch set).  A handler there
 * is the thread's as much as its own code is: signals sent to it
 * meanwhile nest in the handler, and a handler that spins is preempted,
 * as any thread on its CPU.  Or on a stack of the program's own, anywhere
 * but on g0's and the M's signal stack. */
struct g *gmp_signal_g(void *uc)
{
	struct g *gp = getg();
	if (gp == NULL)
		return NULL;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	struct m *mp = __atomic_load_n(&gp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL || __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) != gp)
		return NULL;
	if (gmp_sp_in_g(gp, sp))
		return gp;
	if (mp->after_switch != NULL)
		return NULL;
	if (gmp_altstack_in_use(gp, sp))
		return gp;
	/* Elsewhere, but for g0's stack and the M's signal stack, the
	 * program's code on a stack of its own (a coroutine's, the Erlang
	 * process stacks beam.smp's JIT runs on) is the G's as much as on
	 * its stack, natively signalled and preempted there.  Only the
	 * program's code: the runtime's runs on the G's stack or on g0's. */
	if (sp - (uintptr_t)mp < M_REGION_SIZE || gmp_altstack_on(&mp->gsignal, sp))
		return NULL;
	return gmp_pc_async_safe(pc) ? gp : NULL;
}

/* The runtime's signal is a standard one: a request sent while another is
 * pending merges with it, and only the first one's siginfo arrives.  So
 * the handler does not trust the request kind: it checks every kind of
 * work against the state sysmon or the sender left, the switch-out of a
 * preemption last. */
static void on_runtime_signal(int sig, siginfo_t *si, void *uc)
{
	if (gmp_sig_is_runtime(si)) {
		/* On g0 errno (saved and put back below) would otherwise be
		 * that of the last G, perhaps running on another M by now, and
		 * a value it set meanwhile would be undone (tls_identity under
		 * qemu-user: 1 run in 20-60, "errno changed across a switch"). */
		struct gmp_g0tls t = gmp_g0tls_enter(uc);
		int saved = errno;
		/* The context the handler returns to never blocks the runtime's
		 * signals (an M that blocked a signal it has since become). */
		uint64_t *kmask = (uint64_t *)(void *)&((ucontext_t *)uc)->uc_sigmask;
		*kmask &= ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
		gmp_dump_serve_stop(uc);
		gmp_sigmask_idle_signal(uc);
		gmp_sig_deliver_signal(uc);
		gmp_cancel_signal(uc);
		gmp_preempt_signal(uc);
		errno = saved;
		gmp_g0tls_leave(t);
		return;
	}
	gmp_preempt_handler_chain(sig, si, uc);
}

/* The kernel's handler: for a G, on the G's stacks (gsigstack.c), where
 * a preemption can switch it out. */
static void runtime_signal(int sig, siginfo_t *si, void *uc)
{
	gmp_sigstack_enter(sig, si, uc, true, on_runtime_signal, __builtin_return_address(0));
	on_runtime_signal(sig, si, uc);
}

void gmp_rtsig_dispatch(int sig, siginfo_t *si, void *uc)
{
	on_runtime_signal(sig, si, uc);
}

/* An instance of the runtime's signal that is not ours goes where the
 * program asked. */
void gmp_preempt_handler_chain(int sig, void *info, void *uc)
{
	struct g *gp = gmp_signal_g(uc);
	if (gp)
		gp->nhandled++;
	struct sigaction *ua = &user_act;
	int flags = ua->sa_flags;
	/* Counted as a running handler of the program, as the trampoline
	 * counts the others: a sem_post in it must not take locks. */
	__atomic_add_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
	if (ua->sa_flags & SA_SIGINFO) {
		if (ua->sa_sigaction)
			ua->sa_sigaction(sig, info, uc);
	} else if (ua->sa_handler != SIG_DFL && ua->sa_handler != SIG_IGN) {
		ua->sa_handler(sig);
	} else {
		flags |= SA_RESTART;
	}
	__atomic_sub_fetch(&gmp_sigdepth, 1, __ATOMIC_SEQ_CST);
	if (gp)
		gmp_sig_handled(gp, flags);
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
bool gmp_sigfd_is_runtime(int32_t code, uint32_t pid, uint64_t ptr)
{
	/* Whatever the signal number: one sent before the runtime moved to
	 * another signal (gmp_rtsig_move) is the runtime's too. */
	return code == SI_QUEUE && pid == (uint32_t)gmp_pid && (uint32_t)(ptr >> 8) == cookie;
}

bool gmp_sig_is_runtime(const siginfo_t *si)
{
	return gmp_sigfd_is_runtime(si->si_code, (uint32_t)si->si_pid, (uintptr_t)si->si_value.sival_ptr);
}
