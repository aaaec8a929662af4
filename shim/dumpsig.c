/* Which signals' default action is the dump's (gdump.c): SIGQUIT while the
 * program has no action of its own for it and did not inherit it ignored
 * (a dump, then exit status 2, as Go), GMP_DUMP_SIGNAL (a dump, and the
 * program runs on), and the fault signals when the shim's own code faults
 * (a dump, then the signal's default action).  The program's sigaction on
 * these goes through interpose/signal.c, which asks here what SIG_DFL
 * means and what to report back. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/realsym.h"
#include "dumpsig.h"
#include "gdump.h"
#include "gsignal.h"
#include "rtsig.h"
#include "sys.h"
#include "textmap.h"

static int (*real_sigaction)(int, const struct sigaction *, struct sigaction *);
static int dump_signal;    /* GMP_DUMP_SIGNAL, 0 if unset */
static uint64_t managed;   /* bit per signal whose runtime default is ours */

/* The program's default for a signal we handle: run the kernel's default
 * action as if we had never been there. */
static void default_action(int sig, siginfo_t *si)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	real_sigaction(sig, &sa, NULL);
	/* A fault re-executes the faulting instruction on return; a signal
	 * someone sent (or abort's raise) must be sent again.  It is blocked
	 * until this handler returns. */
	if (si->si_code <= 0 || sig == SIGABRT)
		gmp_syscall(SYS_tgkill, gmp_pid, gmp_syscall(SYS_gettid, 0, 0, 0), sig);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	gmp_dump_fault(sig, si);
	bool busy = gmp_dump_busy();
	/* Another thread is dumping: wait like a stopped M. */
	if (gmp_dump_wait_other(uc) && !gmp_dump_fatal(sig))
		return;
	if (gmp_dump_fatal(sig)) {
		uintptr_t pc, sp;
		gmp_arch_signal_pc_sp(uc, &pc, &sp);
		/* Ours: a fault the kernel raised on a shim instruction, or the
		 * SIGABRT gmp_throw sends itself with a raw tgkill (abort() in
		 * libc has a libc pc).  A kill from elsewhere that happens to land
		 * on an M in the scheduler is not a shim failure. */
		if (!busy && gmp_pc_in_shim(pc) && (si->si_code > 0 || si->si_pid == gmp_pid))
			gmp_dump(sig, si, uc, true);
		default_action(sig, si);
		return;
	}
	if (sig == dump_signal) {
		gmp_dump(sig, si, uc, false);
		return;
	}
	/* SIGQUIT with the runtime's default action: Go's dump, then exit 2. */
	gmp_dump(sig, si, uc, true);
	gmp_syscall(SYS_exit_group, 2, 0, 0);
}

static int install(int sig)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	/* SA_RESTART: a stop request must not make a blocked call fail. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	return real_sigaction(sig, &sa, NULL);
}

static bool is_ours(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_signal;
}

bool gmp_dump_signal_owned(int sig)
{
	return sig > 0 && sig < 64 && (managed & (1ull << sig));
}

/* For interpose/signal.c, on a signal for which gmp_dump_signal_owned()
 * holds (we installed our handler at start-up).  The program's own action
 * replaces ours in the kernel as usual.  SIG_DFL means the runtime's
 * default, as in Go (signal.Reset): gmp_dump_default_action rewrites the
 * action for the kernel into ours, which for SIGQUIT is the dump and for
 * the fault signals is the kernel's default for any fault outside the
 * shim.  gmp_dump_hide turns our action, read back from the kernel, into
 * the SIG_DFL the program would otherwise see. */
bool gmp_dump_default_action(int sig, const struct sigaction *act, struct sigaction *k)
{
	if (!gmp_dump_signal_owned(sig) || act == NULL || act->sa_handler != SIG_DFL || (act->sa_flags & SA_SIGINFO))
		return false;
	memset(k, 0, sizeof *k);
	k->sa_sigaction = on_signal;
	k->sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigemptyset(&k->sa_mask);
	return true;
}

void gmp_dump_hide(struct sigaction *old)
{
	if (is_ours(old)) {
		memset(old, 0, sizeof *old);
		old->sa_handler = SIG_DFL;
	}
}

static int parse_signal(const char *s)
{
	static const struct {
		const char *name;
		int sig;
	} names[] = { { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
		      { "INT", SIGINT },   { "TERM", SIGTERM }, { "WINCH", SIGWINCH }, { "PWR", SIGPWR } };
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	long v = -1;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(s, names[i].name) == 0)
			v = names[i].sig;
	if (v < 0) {
		char *end;
		v = strtol(s, &end, 10);
		if (*s == '\0' || *end != '\0')
			return -1;
	}
	/* The runtime's own signal carries preemption and stop requests. */
	if (v > 0 && v < 64 && v != SIGKILL && v != SIGSTOP && v != gmp_preemptsig && !gmp_dump_fatal((int)v))
		return (int)v;
	return -1;
}

/* Installs our handler where the program's action is still the kernel's
 * default: a program (or a sanitizer runtime) that set its own first
 * keeps it.  An inherited SIG_IGN is kept, unlike Go, which overrides it
 * for SIGQUIT: a shell starts background jobs with SIGQUIT ignored so that
 * a ^\ at the terminal spares them, and natively they would survive it.
 * Only the signal GMP_DUMP_SIGNAL names explicitly overrides SIG_IGN. */
static void manage(int sig, bool over_ignore)
{
	struct sigaction cur;
	if (real_sigaction(sig, NULL, &cur) != 0)
		return;
	if (cur.sa_flags & SA_SIGINFO)
		return;
	if (cur.sa_handler != SIG_DFL && !(cur.sa_handler == SIG_IGN && over_ignore))
		return;
	if (install(sig) == 0) {
		managed |= 1ull << sig;
		gmp_dump_action_changed(sig, true);
	}
}

/* GMP_DUMP_SIGNAL gets through whatever the program blocks (a server
 * whose threads all block every signal) while it is the dump's; once the
 * program sets its own action for it, it is the program's signal again,
 * masks included. */
void gmp_dump_action_changed(int sig, bool ours)
{
	if (dump_signal != 0 && sig == dump_signal)
		gmp_sig_unblockable(sig, ours);
}

void gmp_dumpsig_init(void)
{
	real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))gmp_dlsym_next("sigaction");
	const char *s = getenv("GMP_DUMP_SIGNAL");
	if (s && *s) {
		dump_signal = parse_signal(s);
		if (dump_signal < 0) {
			gmp_printf("gmpshim: ignoring GMP_DUMP_SIGNAL=%s: want a signal name or number "
				   "(not KILL, STOP, the preemption signal or a fault signal)\n", s);
			dump_signal = 0;
		}
	}
	if (dump_signal)
		manage(dump_signal, true);
	if (dump_signal != SIGQUIT)
		manage(SIGQUIT, false);
	for (int sig = 1; sig < 32; sig++)
		if (gmp_dump_fatal(sig))
			manage(sig, false);
}
