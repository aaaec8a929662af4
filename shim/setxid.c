/* Credentials from any thread.
 *
 * Linux keeps credentials per kernel thread; glibc makes a set*id call
 * apply to the whole process by signalling every thread it knows with
 * SIGSETXID and waiting until each one's handler has made the same system
 * call on itself (nptl_setxid.c).  Both sides find "this thread" through
 * THREAD_SELF, the TCB the FS base names: the caller skips itself in the
 * walk, and a handler clears the flag the caller waits on in that TCB.
 * glibc's list holds the NPTL threads: the Ms (their own TCBs), the
 * initial thread's TCB (for m0, the process's first kernel thread),
 * sysmon, the template thread and threads that are no Gs; a G's TCB is in
 * no list, so with a G's TCB in FS the caller signals its own M and waits
 * forever for a flag its handler clears in the G's TCB.
 *
 * So each side runs glibc's code with the TCB glibc lists for the kernel
 * thread it is on: the caller, a G held on its M for the call, and the
 * handler, which wraps glibc's own. */
#include <signal.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/tls.h"
#include "gsignal.h"
#include "lock.h"
#include "runtime.h"
#include "setxid.h"
#include "sys.h"
#include "syscall.h"

#define SIGSETXID 33

struct ksigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

static void (*glibc_handler)(int, siginfo_t *, void *);
static struct mutex installlock;
static int installed;

/* The TCB glibc lists for kernel thread tid: the one in FS when it is
 * that thread's own (a thread that is no G, or the forking G whose TCB
 * glibc's fork put in its list in the child), the initial thread's for
 * m0's thread, an M's own for the others. */
static void *listed_tcb(int tid, void *fs)
{
	if (*gmp_tls_tidp(fs) == tid)
		return fs;
	if (*gmp_tls_tidp(gmp_main_g.tcb) == tid)
		return gmp_main_g.tcb;
	for (struct m *mp = __atomic_load_n(&sched.allm, __ATOMIC_ACQUIRE); mp; mp = mp->alllink)
		if (mp->tid == tid && mp->owntcb && *gmp_tls_tidp(mp->owntcb) == tid)
			return mp->owntcb;
	return fs;
}

static int gettid_raw(void)
{
	return (int)gmp_syscall(SYS_gettid, 0, 0, 0);
}

static void on_setxid(int sig, siginfo_t *si, void *uc)
{
	void *fs = gmp_arch_tp();
	void *tcb = listed_tcb(gettid_raw(), fs);
	if (tcb != fs)
		gmp_arch_setfs(tcb);
	glibc_handler(sig, si, uc);
	if (tcb != fs)
		gmp_arch_setfs(fs);
}

/* glibc installs its handler when the process first becomes
 * multi-threaded, which the runtime's own threads did at start-up; ours
 * goes in front of it with every signal blocked, so that nothing runs
 * while FS names another TCB. */
static void install(void)
{
	if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE))
		return;
	lock(&installlock);
	struct ksigaction ka;
	if (!installed && gmp_syscall6(SYS_rt_sigaction, SIGSETXID, 0, (long)&ka, 8, 0, 0) == 0 &&
	    (ka.flags & SA_SIGINFO) && ka.handler != on_setxid) {
		glibc_handler = ka.handler;
		ka.handler = on_setxid;
		ka.mask = ~0ull;
		if (gmp_syscall6(SYS_rt_sigaction, SIGSETXID, (long)&ka, 0, 8, 0, 0) != 0)
			gmp_throw("setxid: cannot install the SIGSETXID handler");
	}
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
	unlock(&installlock);
}

int gmp_setxid(int (*call)(void *arg, int *err), void *arg, int *err)
{
	install();
	struct g *gp = getg();
	if (gp == NULL)
		return call(arg, err); /* a thread that is no G: its own TCB is listed */
	/* In the syscall state the G stays on this M, whose P sysmon may hand
	 * off while the broadcast waits for every thread. */
	bool entered = entersyscall();
	uint64_t none = ~(SIGBIT(32) | SIGBIT(33)), old;
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, (long)&old, 8, 0, 0);
	void *tcb = listed_tcb(gettid_raw(), gp->tcb);
	gmp_arch_setfs(tcb);
	int r = call(arg, err);
	gmp_arch_setfs(gp->tcb);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
	if (entered)
		exitsyscall();
	return r;
}
