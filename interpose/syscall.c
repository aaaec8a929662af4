/* syscall(2).  futex, futex_waitv and the futex2 calls get the kernel's
 * semantics with Gs parked where the word allows, and robust lists are
 * kept per thread (shim/futex.h); gettid and the calls naming a thread by
 * TID take a G's (shim/thread.h); a program writing back its FS base
 * switches it as the runtime does (shim/syscall.h); every other number
 * goes to the kernel between entersyscall and exitsyscall, since any of
 * them may block (read, nanosleep, io_uring_enter, wait4, ...) and a call
 * that returns at once costs only the two CASes. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <linux/sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "export.h"
#include "shim/fork.h"
#include "shim/futex.h"
#include "shim/gsignal.h"
#include "shim/runtime.h"
#include "shim/schedattr.h"
#include "shim/sys.h"
#include "shim/syscall.h"
#include "shim/thread.h"

/* tkill (no wrapper in glibc) and rt_tgsigqueueinfo (pthread_sigqueue's
 * call) to a G's TID. */
static long tid_signal(long number, const long *a)
{
	bool tk = number == SYS_tkill;
	pid_t tid = (pid_t)a[tk ? 0 : 1];
	int sig = (int)a[tk ? 1 : 2];
	int r = tk || a[0] == getpid() ? gmp_sig_tid_send(tid, sig, tk ? NULL : (const siginfo_t *)a[3]) : 1;
	if (r > 0)
		return gmp_ret(gmp_blocking_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
	return gmp_ret(r);
}

/* A new process made behind glibc's back (syscall(SYS_clone) or clone3
 * without CLONE_VM and with no stack of its own, SYS_fork, SYS_vfork made a
 * fork as vfork() is): the runtime's fork handlers run around it, as around
 * glibc's fork.  Without them the child went on with the parent's
 * netpoller, and its close of an fd the parent polls took the parent's
 * registration away (Qt's QProcess, whose forkfd clones so: the parent's
 * wait for the child's pipe slept for good).  Not with CLONE_VFORK: the
 * parent would hold every runtime lock until the child has exec'd.  false:
 * not such a call. */
static bool raw_fork(long number, long *a, long *ret)
{
	long nr = number;
	switch (number) {
#ifdef SYS_fork
	case SYS_fork:
		break;
	case SYS_vfork:
		nr = SYS_fork;
		break;
#endif
	case SYS_clone:
		if ((a[0] & (CLONE_VM | CLONE_THREAD | CLONE_VFORK)) || a[1] != 0)
			return false;
		break;
	case SYS_clone3: {
		const struct clone_args *ca = (const struct clone_args *)a[0];
		if (ca == NULL || (size_t)a[1] < sizeof(uint64_t) * 8 ||
		    (ca->flags & (CLONE_VM | CLONE_THREAD | CLONE_VFORK)) || ca->stack != 0)
			return false;
		break;
	}
	default:
		return false;
	}
	gmp_fork_prepare();
	long r = gmp_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (r == 0)
		gmp_fork_child();
	else
		gmp_fork_parent();
	*ret = gmp_ret(r);
	return true;
}

GMP_EXPORT long syscall(long number, ...)
{
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	struct sigevent kev;
	if (!gmp_initialized)
		return gmp_ret(gmp_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
	switch (number) {
	/* Calls that may name the runtime's own fds go through the same
	 * interposed functions as their libc wrappers (fd_control.c). */
	case SYS_close:
		return close((int)a[0]);
	case SYS_close_range:
		return close_range((unsigned)a[0], (unsigned)a[1], (int)a[2]);
	case SYS_dup:
		return dup((int)a[0]);
#ifdef SYS_dup2 /* not on aarch64, where dup3 does it */
	case SYS_dup2:
		return dup2((int)a[0], (int)a[1]);
#endif
	case SYS_dup3:
		return dup3((int)a[0], (int)a[1], (int)a[2]);
	case SYS_fcntl:
		return fcntl((int)a[0], (int)a[1], a[2]);
	case SYS_futex:
		return gmp_ret(gmp_sys_futex((uint32_t *)a[0], (int)a[1], (uint32_t)a[2],
					     (const struct timespec *)a[3], (uint32_t *)a[4], (uint32_t)a[5]));
	case SYS_futex_waitv:
		return gmp_ret(gmp_sys_futex_waitv((void *)a[0], (unsigned int)a[1], (unsigned int)a[2],
						   (const struct timespec *)a[3], (clockid_t)a[4]));
	case GMP_SYS_futex_wake:
	case GMP_SYS_futex_wait:
	case GMP_SYS_futex_requeue:
		return gmp_ret(gmp_sys_futex2(number, a));
	case SYS_set_robust_list:
		return gmp_ret(gmp_futex_set_robust_list((void *)a[0], (size_t)a[1]));
	case SYS_get_robust_list:
		return gmp_ret(gmp_futex_get_robust_list((int)a[0], (void **)a[1], (size_t *)a[2]));
	case SYS_set_tid_address:
		return gmp_ret(gmp_futex_set_tid_address((int *)a[0]));
	/* Threads named by TID (shim/thread.h, "Thread IDs"). */
	case SYS_gettid:
		return gmp_gettid();
	case SYS_tgkill:
		return tgkill((pid_t)a[0], (pid_t)a[1], (int)a[2]);
	case SYS_tkill:
	case SYS_rt_tgsigqueueinfo:
		return tid_signal(number, a);
	case SYS_kill:
		return kill((pid_t)a[0], (int)a[1]);
	case SYS_prctl:
		return prctl((int)a[0], a[1], a[2], a[3], a[4]);
	case SYS_setpriority:
	case SYS_getpriority:
	case SYS_ioprio_set:
	case SYS_ioprio_get:
		if (a[0] == (number == SYS_ioprio_set || number == SYS_ioprio_get ? 1 /* IOPRIO_WHO_PROCESS */
										    : PRIO_PROCESS))
			a[1] = gmp_kernel_tid((pid_t)a[1]);
		break;
	case SYS_sched_setattr:
	case SYS_sched_getattr: {
		struct g *gp = gmp_tid_g((pid_t)a[0]);
		if (gp && !(gp->flags & G_FOREIGN))
			return gmp_ret(number == SYS_sched_setattr
					       ? gmp_sched_setattr(gp, (const void *)a[1], (unsigned int)a[2])
					       : gmp_sched_getattr(gp, (void *)a[1], (unsigned int)a[2], (unsigned int)a[3]));
		a[0] = gmp_kernel_tid((pid_t)a[0]);
		break;
	}
	case SYS_sched_setaffinity:
	case SYS_sched_getaffinity:
	case SYS_sched_setscheduler:
	case SYS_sched_getscheduler:
	case SYS_sched_setparam:
	case SYS_sched_getparam:
	case SYS_sched_rr_get_interval:
	case SYS_prlimit64:
		a[0] = gmp_kernel_tid((pid_t)a[0]);
		break;
	case SYS_perf_event_open:
		a[1] = gmp_kernel_tid((pid_t)a[1]);
		break;
	case SYS_timer_create:
		a[1] = (long)gmp_kernel_sigevent((struct sigevent *)a[1], &kev);
		break;
#ifdef SYS_fork
	case SYS_fork:
	case SYS_vfork:
#endif
	case SYS_clone:
	case SYS_clone3: {
		long r;
		if (raw_fork(number, a, &r))
			return r;
		break;
	}
	case SYS_exit:
		/* The M's own task would end, not the thread: no P left
		 * behind in a syscall for it. */
		return gmp_ret(gmp_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
	}
	if (gmp_sys_own_tcb(number, a))
		return 0;
	return gmp_ret(gmp_blocking_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]));
}
