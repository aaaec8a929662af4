/* Rescuing a P from a blocking call the shim never saw: glibc's own
 * futexes (malloc's arenas, stdio's locks), fread on a pipe, a raw
 * syscall.  Such an M holds its P while it sleeps in the kernel, and the
 * Gs queued behind it wait.
 *
 * Detection (sysmon): a P still P_RUNNING whose schedtick has not moved
 * for a tick is either running user code or blocked.  sysmon reads the
 * M's /proc/self/task/<tid>/syscall: "running", or the system call it
 * sleeps in with its arguments and pc.  If it sleeps in a call that the
 * kernel restarts after a SA_RESTART handler (so the program never sees
 * EINTR), outside the shim's own code, sysmon queues the preemption
 * signal to that M, tagged with a cookie so it is never mistaken for the
 * program's own.
 *
 * Hand-off (the M, in the signal handler): only the M itself can safely
 * give up its P.  The handler checks that it interrupted the G on its own
 * stack, running, with a P, outside the shim, at the syscall instruction
 * the kernel is about to restart; then it does what the G would have done
 * had the call been interposed: entersyscall.  sysmon retakes the P at its
 * next tick.  The G carries on in user code without a P once the call
 * returns, until its next entry into the shim takes one back
 * (gmp_getp, entersyscall). */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "rescue.h"
#include "rtsig.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "taskstate.h"
#include "textmap.h"

void gmp_rescue_fork(struct m *mp)
{
	mp->rescue = 0;
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

/* Calls the kernel restarts after a SA_RESTART handler, with the
 * arguments that decide it (futex waits without a timeout; socket calls
 * without SO_RCVTIMEO/SO_SNDTIMEO). */
static bool restartable(long nr, const long *a)
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

/* Reads /proc/self/task/<tid>/<file> into buf (NUL-terminated); the
 * length, or -errno.  Opened for each look, not kept: a descriptor kept
 * open could be inherited by a fork child half-made (the kernel copies the
 * fd table before memory, so a child may believe in a descriptor it never
 * got, and closing it there closed the program's or the netpoller's fd),
 * or be closed or replaced by the program (closefrom, dup2). */
static long read_task_file(int tid, const char *file, char *buf, size_t size)
{
	char path[64] = "/proc/self/task/";
	char num[16];
	int nd = 0;
	for (int t = tid; t; t /= 10)
		num[nd++] = (char)('0' + t % 10);
	size_t len = strlen(path);
	while (nd)
		path[len++] = num[--nd];
	path[len++] = '/';
	memcpy(path + len, file, strlen(file) + 1);
	long fd = gmp_syscall6(SYS_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return fd;
	long n = gmp_syscall(SYS_read, fd, buf, size - 1);
	gmp_syscall(SYS_close, fd, 0, 0);
	if (n < 0)
		return n;
	buf[n] = 0;
	return n;
}

int gmp_task_syscall(int tid, long *nr, uintptr_t *sp, uintptr_t *pc)
{
	char buf[256];
	long n = read_task_file(tid, "syscall", buf, sizeof buf);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -EIO;
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
	/* "nr a1 .. a6 sp pc", or "-1 sp pc". */
	for (int i = 0; i < (outside ? 0 : 6); i++)
		hex(&s);
	*sp = (uintptr_t)hex(&s);
	*pc = (uintptr_t)hex(&s);
	return outside ? 2 : 1;
}

/* A program that changed its credentials is no longer dumpable, and its
 * task files that need ptrace access become root's: one that dropped root
 * cannot open syscall any more.  stat stays readable: a thread running
 * there ('R') is in user mode or about to be, and is preempted as before;
 * what a blocked one waits in is not known, so it is not rescued. */
static enum probe probe_stat(int tid)
{
	char buf[512];
	if (read_task_file(tid, "stat", buf, sizeof buf) <= 0)
		return PROBE_UNKNOWN;
	const char *s = strrchr(buf, ')');
	return s && s[1] == ' ' && s[2] == 'R' ? PROBE_USER : PROBE_UNKNOWN;
}

/* sysmon: pp's M has made no scheduling progress for a tick.  Reads what
 * it is doing; if it sleeps in a call we can rescue it from, signals it. */
enum probe gmp_rescue_probe(struct p *pp)
{
	struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
	if (mp == NULL || mp->tid == 0)
		return PROBE_UNKNOWN;
	char buf[256];
	long n = read_task_file(mp->tid, "syscall", buf, sizeof buf);
	if (n == -EACCES)
		return probe_stat(mp->tid);
	if (n <= 0)
		return PROBE_UNKNOWN;
	if (buf[0] == 'r')
		return PROBE_USER; /* "running": in user mode (or about to be) */
	if (buf[0] < '0' || buf[0] > '9')
		return PROBE_UNKNOWN; /* "-1": stopped outside a system call */
	const char *s = buf;
	long nr = 0;
	while (*s >= '0' && *s <= '9')
		nr = nr * 10 + (*s++ - '0');
	long a[8];
	for (int i = 0; i < 8; i++)
		a[i] = hex(&s);
	if (gmp_pc_in_shim((uintptr_t)a[7]) || !restartable(nr, a))
		return PROBE_BLOCKED;
	mp->rescue_nr = nr;
	__atomic_store_n(&mp->rescue, 1, __ATOMIC_RELEASE);
	gmp_sigsend(mp, SIGREQ_RESCUE);
	return PROBE_RESCUED;
}

/* --- the M's side --- */

void gmp_rescue_signal(void *uc)
{
	struct g *gp = gmp_signal_g(uc);
	if (gp == NULL)
		return;
	struct m *mp = gp->m;
	if (mp == NULL || !__atomic_exchange_n(&mp->rescue, 0, __ATOMIC_ACQ_REL))
		return;
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	if (__atomic_load_n(&gp->status, __ATOMIC_RELAXED) != G_RUNNING || mp->p == NULL || gmp_pc_in_shim(pc))
		return;
	if (!gmp_arch_signal_at_syscall(uc, mp->rescue_nr))
		return; /* the call returned before the signal landed */
	if (entersyscall()) {
		gp->rescued = true;
		gmp_arch_signal_regs(uc, &gp->syscallpc, &gp->syscallsp, &gp->syscallbp);
	}
}
