/* Signal handlers under every combination of the SA_* flags that change
 * how a handler runs (SA_RESETHAND, SA_NODEFER, SA_SIGINFO, SA_RESTART,
 * SA_ONSTACK), for signals sent to the process (kill, sigqueue, a
 * setitimer SIGALRM; every other thread blocks the signal, so the target
 * is the one thread that can take it) and to the thread (pthread_kill,
 * pthread_sigqueue, tgkill of the thread's gettid()), with the target
 * running a busy loop, parked in pthread_mutex_lock or pthread_cond_wait,
 * parked in a read of an empty pipe or in nanosleep, blocked in the
 * kernel in a read of a pipe made behind the runtime's back
 * (syscall(SYS_pipe2)), or running a handler of another signal on its
 * alternate stack (where the signal nests).
 *
 * Each case prints what happened: how many times the handler ran, whether
 * on the target thread, whether the signal itself and the sa_mask signal
 * were blocked in it (and whether a second instance raised in it nested),
 * on which stack it ran, the siginfo it got, the action seen from inside
 * the handler and afterwards, and what the interrupted call returned.  A
 * case ends "ok" when that is what NPTL does (signal(7), sigaction(2));
 * the native run is the reference, and run-both requires the same lines
 * under the shim.  SIGWINCH (default: ignore) is sent a second time after
 * a one-shot handler ran: it must meet the default action, which neither
 * runs the handler again nor interrupts the target's call.
 *
 * Arguments (indexes into the tables below, -1 for all): a combination,
 * a sender, a state, to run part of the matrix by hand. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define ALTSZ (64 * 1024)
#define VALUE 4242
#define FLAGS (SA_RESETHAND | SA_NODEFER | SA_SIGINFO | SA_RESTART | SA_ONSTACK)

static const struct {
	int flags;
	const char *name;
} combos[] = {
	{ 0, "none" },
	{ SA_RESETHAND, "RESETHAND" },
	{ SA_NODEFER, "NODEFER" },
	{ SA_SIGINFO, "SIGINFO" },
	{ SA_RESTART, "RESTART" },
	{ SA_ONSTACK, "ONSTACK" },
	{ SA_RESETHAND | SA_NODEFER, "RESETHAND|NODEFER" },
	{ SA_RESETHAND | SA_SIGINFO | SA_RESTART, "RESETHAND|SIGINFO|RESTART" },
	{ SA_RESETHAND | SA_ONSTACK, "RESETHAND|ONSTACK" },
	{ SA_NODEFER | SA_SIGINFO | SA_RESTART | SA_ONSTACK, "NODEFER|SIGINFO|RESTART|ONSTACK" },
	{ FLAGS, "all" },
};

enum sender { K_KILL, K_SIGQUEUE, K_ITIMER, K_KILL_WINCH, K_TKILL, K_TSIGQUEUE, K_TKILL_WINCH, K_TGKILL, NSENDER };
static const char *const sender_name[] = { "kill", "sigqueue", "itimer", "kill", "pthread_kill", "pthread_sigqueue",
					   "pthread_kill", "tgkill" };

enum state { S_SPIN, S_MUTEX, S_COND, S_PIPE, S_SLEEP, S_KREAD, S_HANDLER, NSTATE };
static const char *const state_name[] = { "running", "mutex", "cond", "pipe read", "nanosleep", "kernel read",
					  "in a handler" };

static int sender_sig(enum sender k)
{
	switch (k) {
	case K_KILL:
		return SIGUSR1;
	case K_SIGQUEUE:
		return SIGRTMIN + 2;
	case K_ITIMER:
		return SIGALRM;
	case K_TKILL:
	case K_TGKILL:
		return SIGUSR2;
	case K_TSIGQUEUE:
		return SIGRTMIN + 3;
	default:
		return SIGWINCH;
	}
}

static int sender_code(enum sender k)
{
	switch (k) {
	case K_KILL:
	case K_KILL_WINCH:
		return SI_USER;
	case K_SIGQUEUE:
	case K_TSIGQUEUE:
		return SI_QUEUE;
	case K_ITIMER:
		return SI_KERNEL;
	default:
		return SI_TKILL;
	}
}

static const char *code_name(int code)
{
	switch (code) {
	case SI_USER:
		return "SI_USER";
	case SI_QUEUE:
		return "SI_QUEUE";
	case SI_TKILL:
		return "SI_TKILL";
	case SI_KERNEL:
		return "SI_KERNEL";
	default:
		return "other";
	}
}

/* The case being run. */
static int cur_sig, cur_flags, cur_extra, nest;
static enum state cur_state;

/* The target thread, as it set itself up. */
static pthread_t target_id;
static volatile int target_tid;
static volatile uintptr_t alt_lo, alt_hi;
static volatile long spins;
static volatile int release;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, cm = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pfd[2];
static char *altmem;

/* What the handler saw (its first run only, but for the counts). */
static volatile int entries, depth, maxdepth;
static volatile int h_self, h_sigblocked, h_extrablocked, h_alt, h_altflag, h_dfl, h_nested;
static volatile int h_signo, h_code, h_value, h_pid;

/* S_HANDLER: the target runs a handler of another signal, on its
 * alternate stack, until released; the signal sent nests in it. */
#define HOST (SIGRTMIN + 6)
static volatile int in_host;
static volatile long host_spins;

static void on_host(int sig)
{
	(void)sig;
	in_host = 1;
	while (!release)
		host_spins++;
}

/* What the target's call returned; how many times a read or a sleep
 * failed with EINTR, or a condition wait returned (NPTL's goes on
 * waiting after a handler: once). */
static volatile int call_first, call_eintr;

static void body(int sig, const siginfo_t *si)
{
	char probe;
	int e = ++entries, d = ++depth;
	if (d > maxdepth)
		maxdepth = d;
	if (e == 1) {
		h_self = pthread_equal(pthread_self(), target_id);
		sigset_t cur;
		pthread_sigmask(SIG_BLOCK, NULL, &cur);
		h_sigblocked = sigismember(&cur, sig);
		h_extrablocked = sigismember(&cur, cur_extra);
		stack_t ss;
		sigaltstack(NULL, &ss);
		h_alt = (uintptr_t)&probe >= alt_lo && (uintptr_t)&probe < alt_hi;
		h_altflag = (ss.ss_flags & SS_ONSTACK) != 0;
		struct sigaction now;
		sigaction(sig, NULL, &now);
		h_dfl = now.sa_handler == SIG_DFL;
		if (si) {
			h_signo = si->si_signo;
			h_code = si->si_code;
			h_value = si->si_value.sival_int;
			h_pid = si->si_pid;
		}
		if (nest) {
			/* Nests at once with SA_NODEFER; otherwise blocked until
			 * this handler returns, then runs. */
			pthread_kill(pthread_self(), sig);
			h_nested = maxdepth >= 2;
		}
	}
	depth--;
}

static void on_plain(int sig)
{
	body(sig, NULL);
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	body(sig, si);
}

static void *target(void *arg)
{
	(void)arg;
	target_id = pthread_self();
	stack_t ss = { .ss_sp = altmem, .ss_size = ALTSZ, .ss_flags = 0 };
	sigaltstack(&ss, NULL);
	alt_lo = (uintptr_t)altmem;
	alt_hi = (uintptr_t)altmem + ALTSZ;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, cur_sig);
	sigaddset(&s, HOST);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	target_tid = (int)syscall(SYS_gettid);
	char c;
	long r;
	switch (cur_state) {
	case S_SPIN:
		while (!release)
			spins++;
		break;
	case S_MUTEX:
		call_first = pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
		break;
	case S_COND:
		pthread_mutex_lock(&cm);
		while (!release) {
			call_first = pthread_cond_wait(&cv, &cm);
			call_eintr++;
		}
		pthread_mutex_unlock(&cm);
		break;
	case S_PIPE:
	case S_KREAD:
		r = read(pfd[0], &c, 1);
		call_first = r < 0 ? -errno : (int)r;
		call_eintr = r < 0 && errno == EINTR;
		while (r < 0 && errno == EINTR) {
			r = read(pfd[0], &c, 1);
			call_eintr += r < 0 && errno == EINTR;
		}
		break;
	case S_HANDLER:
		pthread_kill(pthread_self(), HOST);
		break;
	case S_SLEEP: {
		struct timespec ts = { 5, 0 };
		call_first = nanosleep(&ts, NULL) < 0 ? -errno : 0;
		while (!release) {
			struct timespec ms = { 0, 1000000 };
			call_eintr += nanosleep(&ms, NULL) < 0 && errno == EINTR;
		}
		break;
	}
	default:
		break;
	}
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	return NULL;
}

static int shim;

static uint64_t parks(enum state st)
{
	static const char *const reason[] = { [S_MUTEX] = "mutex lock", [S_COND] = "cond wait",
					      [S_PIPE] = "IO wait (read)", [S_SLEEP] = "sleep" };
	return reason[st] ? shim_parks(reason[st]) : 0;
}

/* Whether kernel thread tid (any of ours when 0) is blocked in system
 * call nr with first argument a0 (-1: any). */
static int task_in(int tid, long nr, long a0)
{
	char path[64], buf[256];
	if (tid == 0) {
		DIR *d = opendir("/proc/self/task");
		struct dirent *e;
		int found = 0;
		while (!found && (e = readdir(d)))
			if (e->d_name[0] != '.')
				found = task_in(atoi(e->d_name), nr, a0);
		closedir(d);
		return found;
	}
	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = 0;
	if (fgets(buf, sizeof buf, f)) {
		long n = -2, arg = 0;
		if (sscanf(buf, "%ld %lx", &n, &arg) >= 1)
			ok = n == nr && (a0 == -1 || arg == a0);
	}
	fclose(f);
	return ok;
}

/* Waits (without parking main, whose parks the shim's counters would
 * count too) until the target is in its state: natively seen in /proc,
 * under the shim in the runtime's park counters, or in /proc for the
 * call the runtime makes in the kernel (a sleep with nothing else to run
 * on its P is one: the runtime's clock_nanosleep on CLOCK_MONOTONIC). */
static int in_state(enum state st, uint64_t before)
{
	for (int i = 0; i < 5000000; i++) {
		int tid = target_tid;
		int ok;
		if (st == S_SPIN)
			ok = spins > 1000;
		else if (st == S_HANDLER)
			ok = in_host && host_spins > 1000;
		else if (tid == 0)
			ok = 0;
		else if (st == S_KREAD || !shim) {
			long nr = st == S_MUTEX || st == S_COND ? SYS_futex : st == S_SLEEP ? SYS_clock_nanosleep : SYS_read;
			long a0 = st == S_MUTEX ? (long)&m : st == S_PIPE || st == S_KREAD ? pfd[0] : -1;
			ok = task_in(shim ? 0 : tid, nr, a0);
		} else {
			ok = parks(st) > before || (st == S_SLEEP && task_in(0, SYS_clock_nanosleep, CLOCK_MONOTONIC));
		}
		if (ok)
			return 1;
		sched_yield();
	}
	return 0;
}

static void send(enum sender k)
{
	union sigval v = { .sival_int = VALUE };
	switch (k) {
	case K_KILL:
	case K_KILL_WINCH:
		kill(getpid(), cur_sig);
		break;
	case K_SIGQUEUE:
		sigqueue(getpid(), cur_sig, v);
		break;
	case K_ITIMER: {
		struct itimerval it = { { 0, 0 }, { 0, 1000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		break;
	}
	case K_TKILL:
	case K_TKILL_WINCH:
		pthread_kill(target_id, cur_sig);
		break;
	case K_TSIGQUEUE:
		pthread_sigqueue(target_id, cur_sig, v);
		break;
	case K_TGKILL:
		tgkill(getpid(), target_tid, cur_sig);
		break;
	default:
		break;
	}
}

static void flag_names(char *out, size_t n, int flags)
{
	static const struct {
		int f;
		const char *s;
	} names[] = { { SA_RESETHAND, "RESETHAND" }, { SA_NODEFER, "NODEFER" }, { SA_SIGINFO, "SIGINFO" },
		      { SA_RESTART, "RESTART" },     { SA_ONSTACK, "ONSTACK" } };
	out[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (flags & names[i].f)
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "|" : "", names[i].s);
	if (!out[0])
		snprintf(out, n, "none");
	if (flags & ~FLAGS) /* SA_RESTORER, which glibc adds on x86_64 */
		snprintf(out + strlen(out), n - strlen(out), "+%#x", (unsigned)(flags & ~FLAGS));
}

static const char *call_name(int r)
{
	static char buf[16];
	if (r == -EINTR)
		return "EINTR";
	snprintf(buf, sizeof buf, "%d", r);
	return buf;
}

static void run_case(int ci, enum sender k, enum state st)
{
	int flags = combos[ci].flags;
	int oneshot = (flags & SA_RESETHAND) != 0;
	int second = oneshot && (k == K_KILL_WINCH || k == K_TKILL_WINCH);
	cur_sig = sender_sig(k);
	cur_extra = cur_sig == SIGUSR1 ? SIGUSR2 : SIGUSR1;
	cur_flags = flags;
	cur_state = st;
	nest = !oneshot;
	entries = depth = maxdepth = 0;
	h_self = h_sigblocked = h_extrablocked = h_alt = h_altflag = h_dfl = h_nested = 0;
	h_signo = h_code = h_value = h_pid = 0;
	call_first = call_eintr = 0;
	target_tid = 0;
	spins = host_spins = 0;
	in_host = 0;
	release = 0;

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	if (flags & SA_SIGINFO)
		sa.sa_sigaction = on_info;
	else
		sa.sa_handler = on_plain;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, cur_extra);
	sigaction(cur_sig, &sa, NULL);

	if (st == S_MUTEX)
		pthread_mutex_lock(&m);
	if (st == S_PIPE && pipe(pfd) != 0)
		perror("pipe");
	if (st == S_KREAD && syscall(SYS_pipe2, pfd, 0) != 0)
		perror("pipe2");
	uint64_t before = parks(st);
	pthread_t t;
	pthread_create(&t, NULL, target, NULL);
	if (!in_state(st, before))
		fprintf(stderr, "%s %s %s: the target never got there\n", combos[ci].name, sender_name[k], state_name[st]);

	send(k);
	int want = nest ? 2 : 1;
	for (int i = 0; i < 5000 && entries < want; i++)
		pause_us(1000);
	/* Nothing more should come: a nested instance has had its chance. */
	pause_us(2000);
	if (second) {
		send(k);
		pause_us(20000);
	}

	release = 1;
	if (st == S_MUTEX)
		pthread_mutex_unlock(&m);
	if (st == S_COND) {
		pthread_mutex_lock(&cm);
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&cm);
	}
	if (st == S_PIPE || st == S_KREAD) {
		if (write(pfd[1], "x", 1) != 1)
			perror("write");
	}
	pthread_join(t, NULL);
	if (st == S_PIPE || st == S_KREAD) {
		close(pfd[0]);
		close(pfd[1]);
	}

	struct sigaction after;
	sigaction(cur_sig, NULL, &after);
	int after_dfl = after.sa_handler == SIG_DFL;
	int after_flags = after.sa_flags;
	int mask_kept = sigismember(&after.sa_mask, cur_extra) == 1;

	/* What NPTL does. */
	int ok = entries == want && h_self && h_extrablocked && h_sigblocked == !(flags & SA_NODEFER) &&
		 h_alt == (st == S_HANDLER || (flags & SA_ONSTACK)) && h_altflag == h_alt && h_dfl == oneshot && after_dfl == oneshot &&
		 (int)(after_flags & FLAGS) == flags && mask_kept;
	if (nest)
		ok &= h_nested == !!(flags & SA_NODEFER);
	if (flags & SA_SIGINFO) {
		ok &= h_signo == cur_sig && h_code == sender_code(k);
		if (sender_code(k) == SI_QUEUE)
			ok &= h_value == VALUE;
		if (sender_code(k) != SI_KERNEL)
			ok &= h_pid == getpid();
	}
	if (st == S_PIPE || st == S_KREAD)
		ok &= (flags & SA_RESTART) ? call_first == 1 && call_eintr == 0 : call_first == -EINTR && call_eintr == 1;
	if (st == S_SLEEP)
		ok &= call_first == -EINTR && call_eintr == 0;
	if (st == S_MUTEX)
		ok &= call_first == 0;
	if (st == S_COND)
		ok &= call_first == 0 && call_eintr == 1;

	char fl[80], info[64];
	flag_names(fl, sizeof fl, after_flags);
	if (flags & SA_SIGINFO)
		snprintf(info, sizeof info, "%s%s%s", h_signo == cur_sig ? "" : "bad-signo ", code_name(h_code),
			 sender_code(k) == SI_QUEUE ? (h_value == VALUE ? " value" : " bad-value") : "");
	else
		snprintf(info, sizeof info, "-");
	printf("%s / %s %s / %s: ran %d%s, on target %d, sig %s, mask %d, stack %s, info %s, "
	       "inside %s, call %s %s %d, after %s %s mask %d: %s\n",
	       combos[ci].name, sender_name[k], strsignal(cur_sig), state_name[st], entries,
	       nest ? (h_nested ? " nested" : " deferred") : "", h_self,
	       h_sigblocked ? "blocked" : "open", h_extrablocked, h_alt ? "alt" : h_altflag ? "?" : "own", info,
	       h_dfl ? "SIG_DFL" : "handler", st == S_SPIN || st == S_HANDLER ? "-" : call_name(call_first),
	       st == S_COND ? "returns" : "eintr", call_eintr,
	       after_dfl ? "SIG_DFL" : "handler", fl, mask_kept, ok ? "ok" : "FAILED");
	failures += !ok;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct gmpshim_stats st;
	shim = gmpshim_stats(&st) == 0;
	altmem = mmap(NULL, ALTSZ, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* Every thread but the target blocks the signals sent here. */
	sigset_t s;
	sigemptyset(&s);
	int sigs[] = { SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH, SIGRTMIN + 2, SIGRTMIN + 3, HOST };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaddset(&s, sigs[i]);
	pthread_sigmask(SIG_BLOCK, &s, NULL);

	struct sigaction host;
	memset(&host, 0, sizeof host);
	host.sa_handler = on_host;
	host.sa_flags = SA_ONSTACK;
	sigemptyset(&host.sa_mask);
	sigaction(HOST, &host, NULL);

	/* argv: a combination, sender and state to run alone (by index). */
	int only_c = argc > 1 ? atoi(argv[1]) : -1, only_k = argc > 2 ? atoi(argv[2]) : -1,
	    only_s = argc > 3 ? atoi(argv[3]) : -1;
	int ncases = 0;
	for (int ci = 0; ci < (int)(sizeof combos / sizeof *combos); ci++)
		for (int k = 0; k < NSENDER; k++)
			for (int sti = 0; sti < NSTATE; sti++) {
				if ((only_c >= 0 && ci != only_c) || (only_k >= 0 && k != only_k) ||
				    (only_s >= 0 && sti != only_s))
					continue;
				run_case(ci, (enum sender)k, (enum state)sti);
				ncases++;
			}
	printf("%d cases, %d failed\n", ncases, failures);
	CHECK(made_as_gs((unsigned)ncases), "the targets were Gs under the shim");
	return failures != 0;
}
