/* Rescuing a P from a blocking call the shim never saw: glibc's own
 * futexes (malloc's arenas, stdio's locks), fread on a pipe, a raw
 * `syscall` instruction in a static library or liburing's io_uring_enter.
 * Such an M holds its P while it sleeps in the kernel, and the Gs queued
 * behind it wait.
 *
 * Detection (sysmon): a P still P_RUNNING whose schedtick has not moved
 * for a tick is either running user code or blocked.  sysmon reads the
 * M's /proc/self/task/<tid>/syscall: "running", or the system call it
 * sleeps in with its arguments, sp and pc.
 *
 * Taking the P (sysmon), without touching the call: no signal, so no
 * call ever ends in EINTR because of us, whatever it is.  Only the M may
 * change its own state, so sysmon proves the M did not run while it
 * decided, Dekker-style with the kernel as the fence: having seen it
 * asleep in a call, it reads the thread's context-switch counts, checks
 * the M's state, raises m->pstolen to PSTOLEN_PENDING, sees it asleep in
 * the same call again (the kernel reports that only of a task that is off
 * its CPU) and reads the same counts.  A thread that was on a CPU at any
 * time in between left it again (the counts moved) or is not asleep now;
 * one that was not has neither changed its state nor looked at pstolen
 * meanwhile, and will see pstolen before it uses its P again, since every
 * way back into the runtime goes through gmp_checkp.  Then one CAS, PENDING to TAKEN, decides the race with an
 * M that woke meanwhile (its gmp_checkp CASes PENDING back to NONE and
 * keeps the P); the winner sysmon hands the P off at once.
 *
 * The M, once back (gmp_rescue_ack): its G is in G_SYSCALL with no P, as
 * if it had called entersyscall before the call, and carries on in user
 * code until its next entry into the runtime (gmp_getp, entersyscall) or
 * the next preemption signal takes a P back (exitsyscall's slow path).
 *
 * Under qemu-user the syscall file describes the emulator's own calls, not
 * the program's: the runtime finds out once (syscall_file_truthful) and
 * then rescues nothing, and preempts a thread its stat says runs.
 *
 * Not taken: an M asleep at a pc inside the shim (the runtime's own locks
 * and notes: like Go's runtime locks, held for a few instructions with the
 * P's state in hand; every call of the shim's that may block goes through
 * entersyscall, so its P is taken the ordinary way), a G that is not
 * simply running (parking, exiting, already rescued), a G in a handler of
 * the program's that interrupted the shim's code, a foreign thread. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "compat/debug.h"
#include "cpuclock.h"
#include "preempt.h"
#include "procfs.h"
#include "rescue.h"
#include "rtsig.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "taskstate.h"
#include "textmap.h"

void gmp_rescue_fork(struct m *mp)
{
	mp->pstolen = PSTOLEN_NONE;
	mp->rescuelook = 0;
}

/* --- sysmon's side --- */

static long hex(const char **s)
{
	const char *p = *s;
	while (*p == ' ')
		p++;
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	long v = 0;
	for (;; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + d;
	}
	*s = p;
	return v;
}

bool gmp_task_restartable(long nr, const long *a)
{
	switch (nr) {
	case SYS_futex: {
		int op = (int)a[1] & 0x7f;
		return (op == 0 /* FUTEX_WAIT */ || op == 9 /* FUTEX_WAIT_BITSET */) && a[3] == 0;
	}
	case SYS_read:
	case SYS_readv:
	case SYS_write:
	case SYS_writev:
	case SYS_recvfrom:
	case SYS_recvmsg:
	case SYS_sendto:
	case SYS_sendmsg:
	case SYS_accept:
	case SYS_accept4:
	case SYS_connect: {
		for (int opt = SO_RCVTIMEO; opt <= SO_SNDTIMEO; opt++) {
			struct timeval tv;
			socklen_t len = sizeof tv;
			if (gmp_syscall6(SYS_getsockopt, a[0], SOL_SOCKET, opt, (long)&tv, (long)&len, 0) == 0 &&
			    (tv.tv_sec || tv.tv_usec))
				return false;
		}
		return true;
	}
	case SYS_wait4:
	case SYS_waitid:
	case SYS_flock:
	case SYS_openat:
	case SYS_getrandom:
		return true;
	case SYS_fcntl:
		return a[1] == F_SETLKW || a[1] == F_OFD_SETLKW;
	default:
		return false;
	}
}

/* "nr a1 .. a6 sp pc", "-1 sp pc" or "running"; 1, 2 or 0 as
 * gmp_task_syscall. */
static int parse_syscall(const char *buf, long *nr, long *args, uintptr_t *sp, uintptr_t *pc)
{
	if (buf[0] == 'r')
		return 0;
	const char *s = buf;
	bool outside = buf[0] == '-';
	long v = 0;
	for (const char *d = buf; *d >= '0' && *d <= '9'; d++)
		v = v * 10 + (*d - '0');
	*nr = outside ? -1 : v;
	while (*s && *s != ' ')
		s++;
	for (int i = 0; i < (outside ? 0 : 6); i++) {
		long a = hex(&s);
		if (args)
			args[i] = a;
	}
	*sp = (uintptr_t)hex(&s);
	*pc = (uintptr_t)hex(&s);
	return outside ? 2 : 1;
}

/* Whether the kernel's syscall file describes the program's own calls: 1
 * yes, -1 no, 0 not known yet (unreadable so far).  Under an emulator that
 * runs each of the program's threads as one of its own (qemu-user) it
 * describes the emulator's: the host's call numbers, arguments and pc, so
 * a thread asleep in the runtime's own futex looks like one asleep in the
 * program's code.  Asked once, of the reading thread's own file, whose
 * read is then the call in progress: it must be read(2) as this build
 * numbers it, made from the shim's code. */
static int syscall_file_truthful(void)
{
	static int known;
	int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
	if (k != 0)
		return k;
	char buf[256];
	long nr = -1;
	uintptr_t sp = 0, pc = 0;
	if (gmp_procfs_read_task(0, "syscall", buf, sizeof buf) <= 0)
		return 0;
	k = parse_syscall(buf, &nr, NULL, &sp, &pc) == 1 && nr == SYS_read && gmp_pc_in_shim(pc) ? 1 : -1;
	if (k < 0 && gmp_debug.verbose)
		gmp_printf("gmpshim: /proc/self/task/*/syscall describes another program's calls (an emulator's): "
			   "unseen blocking calls keep their P\n");
	__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	return k;
}

/* Whether the thread is on a CPU or about to be ('R' in its stat, which
 * stays readable when the syscall file is not, and is the thread's own
 * even under an emulator). */
static bool stat_running(int tid)
{
	char buf[512];
	if (gmp_procfs_read_task(tid, "stat", buf, sizeof buf) <= 0)
		return false;
	const char *s = strrchr(buf, ')');
	return s && s[1] == ' ' && s[2] == 'R';
}

int gmp_task_syscall(int tid, long *nr, long *args, uintptr_t *sp, uintptr_t *pc)
{
	/* Not the program's calls: only whether it runs is known. */
	if (syscall_file_truthful() < 0)
		return stat_running(tid) ? 0 : -ENOTSUP;
	char buf[256];
	long n = gmp_procfs_read_task(tid, "syscall", buf, sizeof buf);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -EIO;
	return parse_syscall(buf, nr, args, sp, pc);
}

/* A program that changed its credentials is no longer dumpable, and its
 * task files that need ptrace access become root's: one that dropped root
 * cannot open syscall any more.  stat stays readable: a thread running
 * there ('R') is in user mode or about to be, and is preempted as before;
 * what a blocked one waits in is not known, so it is not rescued. */
static enum probe probe_stat(int tid)
{
	return stat_running(tid) ? PROBE_USER : PROBE_UNKNOWN;
}

/* The thread's voluntary plus involuntary context switches, or -errno:
 * a count that moves whenever it leaves a CPU. */
static long switches(int tid)
{
	char buf[2048];
	long n = gmp_procfs_read_task(tid, "status", buf, sizeof buf);
	if (n < 0)
		return n;
	long total = 0;
	int seen = 0;
	for (const char *s = buf; (s = strstr(s, "ctxt_switches:")) != NULL; seen++) {
		s += sizeof "ctxt_switches:" - 1;
		while (*s == ' ' || *s == '\t')
			s++;
		long v = 0;
		while (*s >= '0' && *s <= '9')
			v = v * 10 + (*s++ - '0');
		total += v;
	}
	return seen == 2 ? total : -EIO;
}

/* One look at what tid is doing: a blocked call's number, arguments, sp
 * and pc in a[0..8].  sysmon's alone. */
#define SYSCALL_FILE_RETRY_NS 1000000000LL
static enum probe look(int tid, long a[9])
{
	/* Refused once, the syscall file is asked again only after a while
	 * (a program may make itself dumpable again): a daemon that dropped
	 * root paid a failed open at each look. */
	static int64_t refused;
	int64_t now = gmp_nanotime();
	if (refused != 0 && now - refused < SYSCALL_FILE_RETRY_NS)
		return probe_stat(tid);
	uintptr_t sp, pc;
	int k = gmp_task_syscall(tid, &a[0], &a[1], &sp, &pc);
	refused = k == -EACCES ? now : 0;
	if (k == -EACCES)
		return probe_stat(tid);
	if (k == 0)
		return PROBE_USER; /* "running": in user mode (or about to be) */
	if (k != 1)
		return PROBE_UNKNOWN; /* stopped outside a system call, or unreadable */
	a[7] = (long)sp;
	a[8] = (long)pc;
	return PROBE_BLOCKED;
}

/* How much of the time since sysmon's last look at it mp's thread was on
 * a CPU: one clock read, not three /proc calls.  A thread that ran most
 * of it is not asleep in a call worth rescuing yet; one that ran all of
 * it but the last few microseconds is in user mode but for a call it
 * entered just now (over 120 us at least: in a shorter window those
 * microseconds are most of it); one that ran an eighth of it or more
 * computes, if only between other threads on a busy machine. */
enum ran { RAN_LITTLE, RAN_SOME, RAN_MOST, RAN_ALL };
#define RAN_ALL_SLACK_NS 30000
#define PROCLOOK_EVERY_NS 1000000LL

static enum ran ran_since_last_look(struct m *mp, int64_t now)
{
	int64_t cpu = gmp_thread_cputime(mp->tid), wall = now - mp->lookwall, ran = cpu - mp->lookcpu;
	enum ran r = RAN_LITTLE;
	if (mp->lookwall != 0 && ran >= wall / 2)
		r = wall >= 4 * RAN_ALL_SLACK_NS && ran >= wall - RAN_ALL_SLACK_NS ? RAN_ALL : RAN_MOST;
	else if (mp->lookwall != 0 && ran >= wall / 8)
		r = RAN_SOME;
	mp->lookwall = now;
	mp->lookcpu = cpu;
	return r;
}

/* sysmon: pp's M has made no scheduling progress for a tick.  Reads what
 * it is doing; if it sleeps in a call outside the runtime, takes its P
 * and hands it off. */
enum probe gmp_rescue_probe(struct p *pp, bool take, bool sure, int64_t now)
{
	struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL || mp->tid == 0)
		return PROBE_UNKNOWN;
	/* Sure that its slice is up, sysmon preempts only a thread in user
	 * mode, lest a call we never saw end in EINTR. */
	enum ran r = ran_since_last_look(mp, now);
	/* A G its last preemption found spinning (sysmon.c, SPIN_SLICE_NS)
	 * is looked at every few tens of microseconds, too soon for RAN_ALL:
	 * on its CPU most of the time since, it spins still. */
	struct g *cur = __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE);
	bool spinning = cur && __atomic_load_n(&cur->spinwait, __ATOMIC_RELAXED);
	if (r == RAN_ALL || (r == RAN_MOST && (!sure || spinning))) {
		/* On its CPU all the time: that counts as the first of the
		 * two sightings below, so that the next slice's end needs one
		 * look, not two. */
		mp->userlook = r == RAN_ALL;
		return PROBE_USER;
	}
	/* One that computed a good part of the time since the last look: if
	 * its clock still moves, it is on a CPU, in user mode or in a call
	 * that has not gone to sleep, which is all a /proc look would tell
	 * ("running"); believed, as that, when the previous look saw it so
	 * too.  Off its CPU it is runnable behind other threads, or asleep
	 * since just now: a request would wait for it either way, and the
	 * next look decides.  A /proc look at each of these (a hand-off
	 * to the reader thread and back) cost sysmon and the reader 7% of the
	 * process's CPU while four threads computed at two Ps, 14% with two
	 * other processes computing beside it (tests/integration/cpuclock_share). */
	if (sure && r != RAN_LITTLE && gmp_thread_cputime(mp->tid) != mp->lookcpu) {
		bool confirmed = mp->userlook;
		mp->userlook = true;
		return confirmed ? PROBE_USER : PROBE_SEEN;
	}
	/* Asleep, or off its CPU now or most of the time since: a thread
	 * that busy-waits among more threads than CPUs (redis's I/O threads
	 * beside its clients) is often runnable, in user mode, with its clock
	 * stopped, and only /proc tells that from asleep in a call.  On a
	 * busy machine sysmon finds a runnable M so at each of its rounds
	 * until the M gets a CPU back, and a thread asleep in a call the
	 * same: one /proc look per M per millisecond at most, as for a P with
	 * no slice timed. */
	if (now - mp->proclook < PROCLOOK_EVERY_NS)
		return PROBE_UNKNOWN;
	mp->proclook = now;
	long a[9], again[9];
	enum probe what = look(mp->tid, a);
	/* "running" from a thread that was off its CPU since the last look
	 * may be one woken in the kernel for a moment (io_uring's task work)
	 * or on its way into a call we never see, where a request would end
	 * the call with EINTR (raw_block's io_uring_enter at one P: 1 run in
	 * 10).  It is taken for user mode when the next look finds it there
	 * too. */
	bool confirmed = mp->userlook;
	mp->userlook = what == PROBE_USER;
	if (mp->userlook && !confirmed)
		return PROBE_SEEN;
	if (what != PROBE_BLOCKED || !take || gmp_pc_in_shim((uintptr_t)a[8]))
		return what;
	/* From here to the last look the M is proven off its CPU: what it
	 * left in memory stays as it is. */
	long before = switches(mp->tid);
	if (before < 0)
		return PROBE_BLOCKED;
	struct g *gp = __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE);
	if (gp == NULL || (gp->flags & G_FOREIGN) || __atomic_load_n(&mp->p, __ATOMIC_ACQUIRE) != pp ||
	    __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) != G_RUNNING || gp->rescued || gp->shimhandlers ||
	    __atomic_load_n(&mp->pstolen, __ATOMIC_ACQUIRE) != PSTOLEN_NONE)
		return PROBE_BLOCKED;
	mp->stolensp = (uintptr_t)a[7];
	mp->stolenpc = (uintptr_t)a[8];
	__atomic_store_n(&mp->pstolen, PSTOLEN_PENDING, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	bool still = look(mp->tid, again) == PROBE_BLOCKED && memcmp(a, again, sizeof a) == 0 &&
		     switches(mp->tid) == before;
	uint32_t want = PSTOLEN_PENDING;
	if (!__atomic_compare_exchange_n(&mp->pstolen, &want, still ? PSTOLEN_TAKEN : PSTOLEN_NONE, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
	    !still)
		return PROBE_UNKNOWN; /* it woke: it keeps its P */
	/* The P is sysmon's: its M will not touch it again (gmp_rescue_ack). */
	pp->m = NULL;
	pp->syscalltick++;
	pp->ctr.handoffs++;
	__atomic_store_n(&pp->status, P_IDLE, __ATOMIC_RELEASE);
	handoffp(pp);
	return PROBE_RESCUED;
}

/* sysmon: an M whose P was taken and whose G runs user code again without
 * one (it has not entered the runtime since): a preemption request makes
 * it take a P back, or wait for one (gmp_preempt_signal). */
bool gmp_rescue_stragglers(int64_t now)
{
	bool any = false;
	for (struct m *mp = __atomic_load_n(&gmp_allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink) {
		if (mp->tid == 0 || mp->gone)
			continue;
		struct g *gp = __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE);
		bool loose = __atomic_load_n(&mp->pstolen, __ATOMIC_ACQUIRE) == PSTOLEN_TAKEN ||
			     (gp && __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_SYSCALL && gp->rescued);
		any |= loose;
		if (!loose || gmp_asyncpreemptoff || gmp_timeslice_ns <= 0)
			continue; /* preemption is off: its next call into the shim, then */
		/* One look per slice: a /proc read each. */
		if (now - mp->rescuelook < gmp_timeslice_ns)
			continue;
		mp->rescuelook = now;
		long a[9];
		if (ran_since_last_look(mp, now) == RAN_LITTLE || look(mp->tid, a) != PROBE_USER)
			continue; /* still in the kernel: nothing to take back yet.  "running" is
				   * also a wait woken for a moment (io_uring's task work), and a
				   * request would end it with EINTR: an M that slept most of the
				   * time since the last look gets none. */
		gmp_sigsend(mp, SIGREQ_PREEMPT);
	}
	return any;
}
