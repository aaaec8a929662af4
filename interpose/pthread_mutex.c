/* pthread mutexes: POSIX types and error codes over the shim's lock word.
 *
 * Process-private mutexes, whatever their priority protocol, park the G.
 * Process-shared and robust ones stay on kernel futexes in glibc's word
 * format, so other processes (native or shimmed) share them: robust ones
 * through shim/robust.c, other process-shared ones through glibc's own
 * code, with every call that can block made between entersyscall and
 * exitsyscall so that the M's P goes on running other Gs. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/mutex.h"
#include "shim/preempt.h"
#include "shim/rtprio.h"
#include "shim/robust.h"
#include "shim/runtime.h"
#include "shim/syscall.h"

#define D(m) ((m)->__data)
/* A priority-protect mutex's ceiling: glibc keeps it in the high bits of
 * the lock word, which our lock word does not leave free; no mutex of ours
 * uses __nusers. */
#define CEILING(m) (D(m).__nusers)
/* Process-private PI and PP mutexes are not robust, so the robust list
 * links are free: a PI mutex keeps its owner's G there (for the waiters to
 * boost), a PP one the boost its owner had before it (to restore). */
#define PIOWNER(m) ((struct g **)&D(m).__list.__next)
#define PRIO_KINDS (GMP_MUTEX_PRIO_INHERIT | GMP_MUTEX_PRIO_PROTECT)

/* The caller now owns a PI/PP mutex: the boosts begin (shim/rtprio.c). */
static void prio_acquired(pthread_mutex_t *m, int kind)
{
	struct g *gp = getg();
	if (gp == NULL)
		return; /* a foreign thread: the kernel schedules it */
	if (kind & GMP_MUTEX_PRIO_INHERIT) {
		__atomic_store_n(PIOWNER(m), gp, __ATOMIC_RELEASE);
		gmp_rt_pi_acquired(gp);
	} else {
		D(m).__list.__prev = (void *)(intptr_t)gmp_rt_pp_acquired(gp, (int)CEILING(m));
	}
}

/* ... and gave it up: the boost ends after the unlock (before it, a
 * lower priority could be preempted while it still holds the waiters
 * off), and a waiter above us now runs first. */
static void prio_released(int kind, intptr_t saved)
{
	struct g *gp = getg();
	if (gp == NULL)
		return;
	if (kind & GMP_MUTEX_PRIO_INHERIT)
		gmp_rt_pi_released(gp);
	else
		gmp_rt_pp_released(gp, (int)saved);
	gmp_preempt_point();
}

static inline int kernel_kind(pthread_mutex_t *m)
{
	return (D(m).__kind & GMP_MUTEX_KERNEL_BITS) != 0;
}

static inline int robust_kind(pthread_mutex_t *m)
{
	return D(m).__kind != -1 && (D(m).__kind & GMP_MUTEX_ROBUST) != 0;
}

static inline bool protect_kind(const pthread_mutex_t *m)
{
	return D(m).__kind != -1 && (D(m).__kind & GMP_MUTEX_PRIO_PROTECT) != 0;
}

GMP_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	/* No gmp_ensure_init: this needs no runtime, and a malloc calls it
	 * from inside its own initialization (jemalloc), where starting the
	 * runtime would call that malloc again before it is ready. */
	int type = PTHREAD_MUTEX_DEFAULT, pshared = PTHREAD_PROCESS_PRIVATE;
	int robust = PTHREAD_MUTEX_STALLED, protocol = PTHREAD_PRIO_NONE, ceiling = 0;
	if (attr) {
		pthread_mutexattr_gettype(attr, &type);
		pthread_mutexattr_getpshared(attr, &pshared);
		pthread_mutexattr_getrobust(attr, &robust);
		pthread_mutexattr_getprotocol(attr, &protocol);
		pthread_mutexattr_getprioceiling(attr, &ceiling);
	}
	if (pshared == PTHREAD_PROCESS_SHARED && protocol != PTHREAD_PRIO_NONE) {
		/* Other processes would lock it with the kernel's PI futexes
		 * (which need the owner's real TID) or raise their priority
		 * with it; neither can be shared with a G. */
		gmp_unsupported("pthread_mutex_init: process-shared priority inheritance/protection mutex (ENOTSUP)");
		return ENOTSUP;
	}
	int kind = type;
	if (protocol == PTHREAD_PRIO_INHERIT)
		kind |= GMP_MUTEX_PRIO_INHERIT;
	else if (protocol == PTHREAD_PRIO_PROTECT)
		kind |= GMP_MUTEX_PRIO_PROTECT;
	if (pshared == PTHREAD_PROCESS_SHARED && robust != PTHREAD_MUTEX_ROBUST)
		return gmp_real.pthread_mutex_init(m, attr);
	*m = (pthread_mutex_t){ 0 };
	if (robust == PTHREAD_MUTEX_ROBUST)
		kind |= GMP_MUTEX_ROBUST | (pshared == PTHREAD_PROCESS_SHARED ? GMP_MUTEX_PSHARED : 0);
	D(m).__kind = kind;
	if (protocol == PTHREAD_PRIO_PROTECT)
		CEILING(m) = (unsigned)ceiling;
	return 0;
}

/* glibc's process-shared (non-robust) mutexes: try without syscall state,
 * then block the M. */
static int kernel_lock(pthread_mutex_t *m)
{
	int err = gmp_real.pthread_mutex_trylock(m);
	if (err != EBUSY)
		return err;
	err = GMP_BLOCKING_CALL(gmp_real.pthread_mutex_lock(m));
	return err;
}

static int kernel_timedlock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abstime)
{
	int err = gmp_real.pthread_mutex_trylock(m);
	if (err != EBUSY)
		return err;
	err = GMP_BLOCKING_CALL(GMP_REAL(pthread_mutex_clocklock)(m, clk, abstime));
	return err;
}

/* NPTL raises a thread that locks a priority-protect mutex to the ceiling
 * in its own scheduling policy, and fails with EINVAL where the kernel
 * refuses that priority (any ceiling under SCHED_OTHER) or where the
 * thread's priority is above the ceiling.  We give the same answers from
 * the G's scheduling attributes; the raise is prio_acquired's.  Out of
 * line: every other lock pays one test. */
static int ceiling_refused(pthread_mutex_t *m)
{
	struct g *gp = gmp_thisg(); /* a foreign thread's: SCHED_OTHER, as it was made */
	if (gp == NULL)
		return ENOMEM;
	int policy = gp->sched_policy & ~SCHED_RESET_ON_FORK, prio = gp->sched_priority;
	int ceiling = (int)CEILING(m);
	if (sched_get_priority_max(policy) < ceiling || prio > ceiling)
		return EINVAL;
	return 0;
}

/* The owner id of the caller.  Threads that are not Gs lock mutexes too
 * when the program's malloc takes pthread locks (jemalloc): the template
 * thread allocating a new M's TLS, glibc's helper threads; they wait on
 * their foreign G (shim/foreign.c). */
static int self_id(void)
{
	return gmp_self_tid();
}

static int lock_inner(pthread_mutex_t *m, int64_t deadline)
{
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	if (robust_kind(m))
		return gmp_robust_lock(m, type, deadline);
	int self = self_id();
	if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
		if (D(m).__owner == self) {
			if (type == PTHREAD_MUTEX_ERRORCHECK)
				return EDEADLK;
			if (D(m).__count == UINT_MAX)
				return EAGAIN;
			D(m).__count++;
			return 0;
		}
	}
	int kind = D(m).__kind;
	int err = kind & GMP_MUTEX_PRIO_INHERIT ? gmp_mutex_lock_pi((uint32_t *)&D(m).__lock, PIOWNER(m), deadline)
						 : gmp_mutex_lock((uint32_t *)&D(m).__lock, deadline);
	if (err)
		return err;
	D(m).__owner = self;
	D(m).__count = 1;
	if (__builtin_expect(kind & PRIO_KINDS, 0))
		prio_acquired(m, kind);
	return 0;
}

static int lock_common(pthread_mutex_t *m, int64_t deadline)
{
	int err = protect_kind(m) ? ceiling_refused(m) : 0;
	return err ? err : lock_inner(m, deadline);
}

GMP_EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (!gmp_initialized)
		return kernel_kind(m) ? gmp_real.pthread_mutex_lock(m) : 0;
	if (kernel_kind(m) && !robust_kind(m))
		return kernel_lock(m);
	return lock_common(m, -1);
}

static int clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abstime)
{
	gmp_ensure_init();
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC)
		return EINVAL;
	if (kernel_kind(m) && !robust_kind(m))
		return kernel_timedlock(m, clk, abstime);
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	if (err) {
		/* POSIX: the time is checked only if the mutex is not free
		 * (and, as NPTL, after the errorcheck owner test). */
		int r = pthread_mutex_trylock(m);
		if (r == EBUSY && (D(m).__kind & GMP_MUTEX_TYPE_MASK) == PTHREAD_MUTEX_ERRORCHECK &&
		    !robust_kind(m) && D(m).__owner == self_id())
			return EDEADLK;
		return r == EBUSY ? err : r;
	}
	return lock_common(m, deadline);
}

GMP_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	return clocklock(m, CLOCK_REALTIME, abstime);
}

GMP_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *abstime)
{
	return clocklock(m, clk, abstime);
}

GMP_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	/* As lock and unlock: before the runtime exists there is one thread.
	 * Starting the runtime from here breaks a malloc that locks (jemalloc,
	 * whose first lock is a trylock, from another library's constructor):
	 * start-up itself mallocs, re-entering that malloc mid-lock. */
	if (!gmp_initialized)
		return kernel_kind(m) ? gmp_real.pthread_mutex_trylock(m) : 0;
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	int cerr = protect_kind(m) ? ceiling_refused(m) : 0;
	if (cerr)
		return cerr;
	if (robust_kind(m))
		return gmp_robust_lock(m, type, GMP_ROBUST_TRY);
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_trylock(m);
	int self = self_id();
	if (type == PTHREAD_MUTEX_RECURSIVE && D(m).__owner == self) {
		if (D(m).__count == UINT_MAX)
			return EAGAIN;
		D(m).__count++;
		return 0;
	}
	if (gmp_mutex_trylock((uint32_t *)&D(m).__lock) != 0)
		return EBUSY;
	D(m).__owner = self;
	D(m).__count = 1;
	if (__builtin_expect(D(m).__kind & PRIO_KINDS, 0))
		prio_acquired(m, D(m).__kind);
	return 0;
}

GMP_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (!gmp_initialized)
		return kernel_kind(m) ? gmp_real.pthread_mutex_unlock(m) : 0;
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	if (robust_kind(m))
		return gmp_robust_unlock(m, type);
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_unlock(m);
	if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
		if (D(m).__owner != self_id() || D(m).__lock == 0)
			return EPERM;
		if (--D(m).__count != 0)
			return 0;
	}
	D(m).__owner = 0;
	int kind = D(m).__kind;
	if (__builtin_expect(kind & PRIO_KINDS, 0)) {
		intptr_t saved = (intptr_t)D(m).__list.__prev;
		if (kind & GMP_MUTEX_PRIO_INHERIT)
			__atomic_store_n(PIOWNER(m), NULL, __ATOMIC_RELEASE);
		gmp_mutex_unlock((uint32_t *)&D(m).__lock);
		prio_released(kind, saved);
		return 0;
	}
	gmp_mutex_unlock((uint32_t *)&D(m).__lock);
	return 0;
}

GMP_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m)
{
	if (kernel_kind(m))
		return gmp_real.pthread_mutex_destroy(m);
	if (__atomic_load_n(&D(m).__lock, __ATOMIC_ACQUIRE) != 0)
		return EBUSY;
	D(m).__kind = -1; /* as glibc: later use gets EINVAL */
	return 0;
}

GMP_EXPORT int pthread_mutex_consistent(pthread_mutex_t *m)
{
	if (!robust_kind(m) || D(m).__owner != INT_MAX /* glibc's INCONSISTENT */)
		return EINVAL;
	D(m).__owner = self_id();
	return 0;
}
/* <pthread.h> redirects the _np name to the POSIX one at compile time;
 * older binaries still call it by its own. */
GMP_EXPORT int gmp_mutex_consistent_np(pthread_mutex_t *m) __asm__("pthread_mutex_consistent_np")
	__attribute__((alias("pthread_mutex_consistent")));

/* Priority protection: the ceiling is stored and reported, and its owner
 * runs at it (prio_acquired). */
GMP_EXPORT int pthread_mutex_getprioceiling(const pthread_mutex_t *m, int *ceiling)
{
	if (!protect_kind(m))
		return EINVAL;
	*ceiling = (int)CEILING(m);
	return 0;
}

GMP_EXPORT int pthread_mutex_setprioceiling(pthread_mutex_t *m, int ceiling, int *old)
{
	if (!protect_kind(m))
		return EINVAL;
	if (ceiling < sched_get_priority_min(SCHED_FIFO) || ceiling > sched_get_priority_max(SCHED_FIFO))
		return EINVAL;
	/* POSIX: lock it (unless the caller holds it), change, unlock. */
	int type = D(m).__kind & GMP_MUTEX_TYPE_MASK;
	bool mine = robust_kind(m) ? gmp_robust_held(m)
				   : (type != PTHREAD_MUTEX_NORMAL && D(m).__owner == self_id());
	if (!mine) {
		/* As NPTL, without raising the caller to the old ceiling. */
		int err = lock_inner(m, -1);
		if (err != 0 && err != EOWNERDEAD)
			return err;
	}
	*old = (int)CEILING(m);
	CEILING(m) = (unsigned)ceiling;
	if (!mine)
		pthread_mutex_unlock(m);
	return 0;
}

/* Old entry points some libraries still call. */
GMP_EXPORT int __pthread_mutex_lock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_lock")));
GMP_EXPORT int __pthread_mutex_unlock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_unlock")));
GMP_EXPORT int __pthread_mutex_trylock(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_trylock")));
GMP_EXPORT int __pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
	__attribute__((alias("pthread_mutex_init")));
GMP_EXPORT int __pthread_mutex_destroy(pthread_mutex_t *m) __attribute__((alias("pthread_mutex_destroy")));
