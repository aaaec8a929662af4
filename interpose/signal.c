/* Signals per thread: masks, thread-directed signals, signal waits and
 * alternate stacks follow the G, not the OS thread under it (the
 * mechanism is in shim/gsignal.c).  The program's handlers run through
 * the runtime's trampoline (shim/sigtramp.c).  The runtime's own signal
 * (SIGURG by default) stays installed; the program's action for it is
 * kept aside and called for every instance that is not the runtime's. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/dumpsig.h"
#include "shim/gsignal.h"
#include "shim/gsigstack.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/rtsig.h"
#include "shim/runtime.h"
#include "shim/sigtramp.h"
#include "shim/sigwake.h"
#include "shim/sys.h"
#include "shim/syscall.h"
#include "shim/timer.h"

/* Whether an action runs a function of the program's (not SIG_DFL or
 * SIG_IGN, which the kernel carries out itself). */
static bool runs_function(const struct sigaction *a)
{
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

GMP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (!gmp_initialized || sig < 1 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP || sig == 32 ||
	    sig == 33)
		return GMP_REAL(sigaction)(sig, act, old);
	/* The runtime's signal: the program's action is kept for instances
	 * that are not the runtime's, unless the runtime can leave the signal
	 * to the program (a function of the program's on a standard signal
	 * would lose instances to merging with the runtime's). */
	if (sig == __atomic_load_n(&gmp_preemptsig, __ATOMIC_ACQUIRE)) {
		struct sigaction prev;
		if (!(act && runs_function(act) && gmp_rtsig_move(sig, &prev))) {
			gmp_preemptsig_action(act, old);
			return 0;
		}
		gmp_sigtramp_lock();
		*gmp_sigtramp_action(sig) = prev;
		gmp_sigtramp_unlock();
	}
	/* The kernel gets the trampoline with the program's flags and mask;
	 * the program's action is kept for the trampoline and for queries. */
	gmp_sigtramp_lock();
	struct sigaction *mine = gmp_sigtramp_action(sig), prev = *mine, k, kold;
	int r;
	if (act) {
		k = *act;
		bool dump = false;
		if (runs_function(act)) {
			gmp_sigtramp_kernel_action(&k);
		} else {
			dump = gmp_dump_default_action(sig, act, &k); /* SIG_DFL: the runtime's default (gdump.c) */
		}
		*mine = *act;
		r = GMP_REAL(sigaction)(sig, &k, &kold);
		if (r != 0)
			*mine = prev;
		else
			gmp_dump_action_changed(sig, dump);
	} else {
		r = GMP_REAL(sigaction)(sig, NULL, &kold);
	}
	gmp_sigtramp_unlock();
	/* What the kernel has, unless it is our trampoline (SA_RESETHAND, or
	 * glibc's own calls, may have replaced it since). */
	if (r == 0 && old) {
		*old = kold;
		if ((kold.sa_flags & SA_SIGINFO) && kold.sa_sigaction == gmp_sigtramp) {
			/* With what glibc added installing it (x86_64's
			 * SA_RESTORER and restorer), as NPTL reports it. */
			*old = prev;
			old->sa_flags |= kold.sa_flags & ~(prev.sa_flags | SA_SIGINFO | SA_ONSTACK);
			old->sa_restorer = kold.sa_restorer;
		}
		gmp_dump_hide(old); /* the runtime's dump handler reads back as SIG_DFL */
	}
	return r;
}

static __sighandler_t set_handler(int sig, __sighandler_t h, int flags)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* glibc's internal name, which programs that wrap sigaction call through
 * dlsym(RTLD_NEXT) (beam.smp re-installs every action with SA_ONSTACK
 * that way, the runtime's too until this was interposed). */
GMP_EXPORT int __sigaction(int sig, const struct sigaction *act, struct sigaction *old)
	__attribute__((alias("sigaction")));

/* glibc's signal() has BSD semantics and calls sigaction internally, out
 * of our sight. */
GMP_EXPORT __sighandler_t signal(int sig, __sighandler_t h)
{
	if (!gmp_initialized)
		return GMP_REAL(signal)(sig, h);
	return set_handler(sig, h, SA_RESTART);
}

GMP_EXPORT __sighandler_t bsd_signal(int sig, __sighandler_t h) __attribute__((alias("signal")));

/* System V semantics: reset to SIG_DFL on delivery, the signal not
 * blocked in its handler, calls not restarted. */
GMP_EXPORT __sighandler_t sysv_signal(int sig, __sighandler_t h)
{
	if (!gmp_initialized)
		return GMP_REAL(sysv_signal)(sig, h);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

GMP_EXPORT __sighandler_t __sysv_signal(int sig, __sighandler_t h) __attribute__((alias("sysv_signal")));

/* System V's sigset: SIG_HOLD adds sig to the mask; anything else is
 * installed and sig unblocked.  Returns SIG_HOLD if sig was blocked. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
GMP_EXPORT __sighandler_t sigset(int sig, __sighandler_t h)
{
	if (!gmp_initialized)
		return GMP_REAL(sigset)(sig, h);
	sigset_t one, was;
	sigemptyset(&one);
	if (sigaddset(&one, sig) < 0)
		return SIG_ERR;
	struct sigaction old;
	if (h == SIG_HOLD) {
		if (sigaction(sig, NULL, &old) < 0 || pthread_sigmask(SIG_BLOCK, &one, &was) != 0)
			return SIG_ERR;
	} else {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = h;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sig, &sa, &old) < 0 || pthread_sigmask(SIG_UNBLOCK, &one, &was) != 0)
			return SIG_ERR;
	}
	return sigismember(&was, sig) ? SIG_HOLD : old.sa_handler;
}
#pragma GCC diagnostic pop

/* Off any G (the template thread, sysmon, a handler on an idle M) the
 * calls act on the OS thread, as glibc's do. */
static struct g *curg(void)
{
	return gmp_initialized ? getg() : NULL;
}

GMP_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	if (curg() == NULL)
		return GMP_REAL(pthread_sigmask)(how, set, old);
	uint64_t s, o;
	if (set)
		memcpy(&s, set, sizeof s);
	int err = gmp_sigmask_change(how, set ? &s : NULL, old ? &o : NULL);
	if (err == 0 && old) {
		sigemptyset(old);
		memcpy(old, &o, sizeof o);
	}
	return err;
}

GMP_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	if (curg() == NULL)
		return GMP_REAL(sigprocmask)(how, set, old);
	int err = pthread_sigmask(how, set, old);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* The thread pthread_kill and pthread_sigqueue address, or an errno. */
static int kill_target(pthread_t t, int sig, struct g **out)
{
	gmp_ensure_init();
	if (sig < 0 || sig >= NSIG)
		return EINVAL;
	*out = gmp_registry_get((void *)t);
	if (*out == NULL)
		return ESRCH;
	if (sig == 32 || sig == 33)
		return EINVAL; /* glibc's own, as NPTL answers */
	return 0;
}

static bool exited(struct g *gp)
{
	return __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD;
}

/* A thread that has exited but is not joined yet still has a valid
 * pthread_t: glibc (2.34 on) sends it nothing and answers 0. */
GMP_EXPORT int pthread_kill(pthread_t t, int sig)
{
	struct g *gp;
	int err = kill_target(t, sig, &gp);
	if (err == 0 && sig != 0 && !exited(gp))
		err = gmp_sig_send(gmp_sig_sender(gp), gp, sig);
	return err;
}

/* glibc's addresses the TID, so an exited thread is ESRCH here. */
GMP_EXPORT int pthread_sigqueue(pthread_t t, int sig, const union sigval value)
{
	struct g *gp;
	int err = kill_target(t, sig, &gp);
	if (err == 0 && exited(gp))
		err = ESRCH;
	if (err == 0 && sig != 0) {
		struct gmp_fwdinfo info = { SI_QUEUE, getpid(), getuid(), value };
		err = gmp_sig_send_info(gmp_sig_sender(gp), gp, sig, &info);
	}
	return err;
}

/* A thread of ours named by its TID (gettid()) gets the signal as from
 * pthread_kill; any other TID is the kernel's. */
GMP_EXPORT int tgkill(pid_t tgid, pid_t tid, int sig)
{
	int r = tgid == getpid() ? gmp_sig_tid_send(tid, sig, NULL) : 1;
	if (r > 0)
		return GMP_REAL(tgkill)(tgid, tid, sig);
	return r < 0 ? (errno = -r, -1) : 0;
}

GMP_EXPORT int raise(int sig)
{
	struct g *gp = curg();
	if (gp == NULL)
		return GMP_REAL(raise)(sig);
	if (sig <= 0 || sig >= NSIG || sig == 32 || sig == 33) {
		errno = EINVAL;
		return -1;
	}
	int err = gmp_sig_send(gp, gp, sig);
	return err ? (errno = err, -1) : 0;
}

/* Signal waits.  The runtime's own requests are thread-directed and never
 * meant for the program: a wait that dequeues one handles it as the
 * handler would have and waits again. */
static int sigwait_filtered(const sigset_t *set, siginfo_t *info, const struct timespec *ts)
{
	(void)gmp_rtsig_take_sync(set); /* if kept, thread-directed instances still come */
	siginfo_t own;
	if (info == NULL)
		info = &own;
	int64_t deadline = ts ? gmp_nanotime() + ts->tv_sec * 1000000000LL + ts->tv_nsec : -1;
	for (;;) {
		struct timespec left, *tsp = gmp_deadline_timeout(deadline, &left);
		long r;
		if (curg() == NULL) {
			r = gmp_syscall6(SYS_rt_sigtimedwait, (long)set, (long)info, (long)tsp, 8, 0, 0);
		} else {
			r = GMP_BLOCKING_CALL(gmp_sigwait_kernel(set, info, tsp));
		}
		if (r < 0 || !gmp_sig_is_runtime(info)) {
			/* glibc's sigtimedwait folds tkill's code into SI_USER. */
			if (r > 0 && info->si_code == SI_TKILL)
				info->si_code = SI_USER;
			return (int)gmp_ret(r);
		}
	}
}

GMP_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *ts)
{
	GMP_CANCEL_POINT;
	return sigwait_filtered(set, info, ts);
}

GMP_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info)
{
	GMP_CANCEL_POINT;
	return sigwait_filtered(set, info, NULL);
}

GMP_EXPORT int sigwait(const sigset_t *set, int *sig)
{
	GMP_CANCEL_POINT;
	int r;
	do
		r = sigwait_filtered(set, NULL, NULL);
	while (r < 0 && errno == EINTR && !gmp_cancel_requested(curg()));
	if (r < 0)
		return errno;
	*sig = r;
	return 0;
}

GMP_EXPORT int pause(void)
{
#ifdef SYS_pause
	GMP_CANCEL_POINT;
	return (int)gmp_ret(gmp_blocking_syscall6(SYS_pause, 0, 0, 0, 0, 0, 0));
#else
	/* No pause system call (aarch64): the thread's own mask suspended
	 * on, as glibc does there. */
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	return sigsuspend(&cur);
#endif
}

GMP_EXPORT int sigsuspend(const sigset_t *mask)
{
	GMP_CANCEL_POINT;
	if (curg() == NULL)
		return GMP_REAL(sigsuspend)(mask);
	struct gmp_sigcall c;
	gmp_sig_masked_enter(&c, mask);
	long r = gmp_syscall_intr(SYS_rt_sigsuspend, (long)&c.kmask, 8, 0, 0, 0, 0);
	gmp_sig_masked_exit(&c);
	return (int)gmp_ret(r);
}

/* The alternate signal stack is the thread's: kept per G, never given to
 * the kernel (shim/gsigstack.c). */
GMP_EXPORT int sigaltstack(const stack_t *ss, stack_t *old)
{
	struct g *gp = curg();
	if (gp == NULL)
		return GMP_REAL(sigaltstack)(ss, old);
	int err = gmp_sigaltstack(gp, ss, old);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* Pending for the thread: what the kernel holds for the process and the
 * M, and what was sent to this G and waits for it to unblock it. */
GMP_EXPORT int sigpending(sigset_t *set)
{
	struct g *gp = curg();
	int r = GMP_REAL(sigpending)(set);
	if (r == 0 && gp) {
		uint64_t k;
		memcpy(&k, set, sizeof k);
		k |= __atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST);
		memcpy(set, &k, sizeof k);
	}
	return r;
}
