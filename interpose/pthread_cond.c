/* Condition variables as Go's sync.Cond: a ticket taken before the mutex
 * is released, so a signal between unlock and park is never lost.
 * Process-shared ones stay glibc's, waiting on kernel futexes with the M
 * in a syscall. */
#include <errno.h>
#include <pthread.h>

#include "compat/debug.h"
#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/mutex.h"
#include "shim/robust.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/syscall.h"

#define C(c) ((struct gmp_cond *)(c))

static inline int shared(pthread_cond_t *c)
{
	return (C(c)->wrefs & GMP_COND_SHARED) != 0;
}

GMP_EXPORT int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr)
{
	gmp_ensure_init();
	/* glibc's init validates the attribute and records its clock and
	 * pshared flags in __wrefs; the counters start at zero either way. */
	return gmp_real.pthread_cond_init(c, attr);
}

static int wait_common(pthread_cond_t *c, pthread_mutex_t *m, int64_t deadline)
{
	int type = m->__data.__kind & GMP_MUTEX_TYPE_MASK;
	if (m->__data.__kind != -1 && (m->__data.__kind & GMP_MUTEX_ROBUST)) {
		if (!gmp_robust_held(m))
			return EPERM;
	} else if ((type == PTHREAD_MUTEX_ERRORCHECK || type == PTHREAD_MUTEX_RECURSIVE) &&
		   m->__data.__owner != gmp_self_tid()) {
		return EPERM;
	}
	/* Only a mutex of ours can take a waiter moved over by a broadcast
	 * (wait morphing, shim/sema.c); glibc's own wake their waiters. */
	uint32_t *lockword = (m->__data.__kind & GMP_MUTEX_KERNEL_BITS) ? NULL : (uint32_t *)&m->__data.__lock;
	uint32_t ticket = gmp_notify_add(&C(c)->wait);
	/* Release a recursive mutex completely and restore its depth after. */
	unsigned depth = m->__data.__count;
	m->__data.__count = 1;
	pthread_mutex_unlock(m);
	int err = gmp_notify_wait(c, &C(c)->notify, ticket, deadline, lockword);
	bool notified = false;
	if (err == GMP_WAKE_REQUEUED || err == GMP_WAKE_HANDOFF) {
		notified = true;
		/* Notified and moved onto the mutex's queue: an unlock woke us
		 * to compete for it, or handed it over (starvation mode). */
		if (err == GMP_WAKE_REQUEUED)
			gmp_mutex_lock_requeued(lockword);
		m->__data.__owner = gmp_self_tid();
		err = 0;
	} else {
		int lerr;
		while ((lerr = pthread_mutex_lock(m)) == EAGAIN)
			;
		if (lerr == EOWNERDEAD || lerr == ENOTRECOVERABLE)
			return lerr; /* a robust mutex's owner died meanwhile */
		if (err == EINTR)
			err = 0; /* a signal: POSIX allows a spurious wake-up, not EINTR */
		else if (err == 0)
			notified = true;
	}
	m->__data.__count = depth;
	/* About to be cancelled (cancel.h acts on the way out) after taking
	 * a notification: POSIX wants it not consumed while others wait, so
	 * pass it on (at worst a spurious wake-up for another waiter). */
	if (notified && gmp_cancel_requested(getg()))
		gmp_notify_one(c, &C(c)->wait, &C(c)->notify);
	return err;
}

/* A process-shared condvar is glibc's (other processes wait on it and
 * signal it with glibc's protocol); glibc unlocks and relocks the mutex
 * with its internal functions, so the mutex must be one of glibc's too. */
static bool glibc_mutex(pthread_mutex_t *m)
{
	int kind = m->__data.__kind;
	return kind != -1 && (kind & GMP_MUTEX_PSHARED) && !(kind & GMP_MUTEX_ROBUST);
}

static int real_wait(void *c, pthread_mutex_t *m, clockid_t clk, const void *abstime)
{
	return abstime ? GMP_REAL(pthread_cond_clockwait)(c, m, clk, abstime) : gmp_real.pthread_cond_wait(c, m);
}

static int shared_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abstime)
{
	int kind = m->__data.__kind;
	if (kind != -1 && (kind & GMP_MUTEX_ROBUST))
		return gmp_robust_cond_wait(m, real_wait, c, clk, abstime);
	if (!glibc_mutex(m)) {
		gmp_unsupported("pthread_cond_wait: process-shared condvar with a process-private mutex (EINVAL)");
		return EINVAL;
	}
	int err = GMP_BLOCKING_CALL(real_wait(c, m, clk, abstime));
	return err;
}

GMP_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	if (shared(c))
		return shared_wait(c, m, 0, NULL);
	return wait_common(c, m, -1);
}

GMP_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
				      const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	if (shared(c))
		return shared_wait(c, m, clk, abstime);
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	return err ? err : wait_common(c, m, deadline);
}

GMP_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	clockid_t clk = (C(c)->wrefs & GMP_COND_MONOTONIC) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
	if (shared(c))
		return shared_wait(c, m, clk, abstime);
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	return err ? err : wait_common(c, m, deadline);
}

GMP_EXPORT int pthread_cond_signal(pthread_cond_t *c)
{
	if (!gmp_initialized)
		return 0;
	/* glibc's signal, broadcast and destroy of a shared condvar may wait
	 * briefly in the kernel (its internal lock, destroy waiting for woken
	 * waiters to leave): the M may block, so the P must be free to go. */
	if (shared(c))
		return GMP_BLOCKING_CALL(gmp_real.pthread_cond_signal(c));
	gmp_notify_one(c, &C(c)->wait, &C(c)->notify);
	return 0;
}

GMP_EXPORT int pthread_cond_broadcast(pthread_cond_t *c)
{
	if (!gmp_initialized)
		return 0;
	if (shared(c))
		return GMP_BLOCKING_CALL(gmp_real.pthread_cond_broadcast(c));
	gmp_notify_all(c, &C(c)->wait, &C(c)->notify);
	return 0;
}

GMP_EXPORT int pthread_cond_destroy(pthread_cond_t *c)
{
	if (shared(c))
		return GMP_BLOCKING_CALL(gmp_real.pthread_cond_destroy(c));
	if (gmp_initialized && gmp_semq_count(c) > 0)
		return EBUSY;
	return 0;
}

/* The same functions under glibc's version name GLIBC_2.3.2 (gmpshim.map).
 * ThreadSanitizer finds the condvar functions it wraps with
 * dlvsym(RTLD_NEXT, "pthread_cond_wait", "GLIBC_2.3.2"), which accepts only
 * a definition carrying exactly that version: without these its wrappers
 * would skip the shim and run glibc's condvar, blocking the M in the kernel
 * on a mutex that our pthread_mutex_lock owns.  The unversioned names stay
 * the default; a program's ordinary pthread_cond_wait@GLIBC_2.3.2
 * reference binds to them as before. */
/* Wrappers, not aliases: ld drops an unversioned definition that has a
 * non-default versioned alias at the same address.  They call ours
 * through a hidden alias: the exported name resolves to TSan's wrapper. */
#define GLIBC_2_3_2(name, params, args)                                                            \
	extern __typeof__(name) gmp_own_##name __attribute__((alias(#name), visibility("hidden")));  \
	int gmp_v232_##name params;                                                                \
	GMP_EXPORT __attribute__((symver(#name "@GLIBC_2.3.2"))) int gmp_v232_##name params           \
	{                                                                                          \
		return gmp_own_##name args;                                                        \
	}
GLIBC_2_3_2(pthread_cond_init, (pthread_cond_t *c, const pthread_condattr_t *a), (c, a))
GLIBC_2_3_2(pthread_cond_destroy, (pthread_cond_t *c), (c))
GLIBC_2_3_2(pthread_cond_signal, (pthread_cond_t *c), (c))
GLIBC_2_3_2(pthread_cond_broadcast, (pthread_cond_t *c), (c))
GLIBC_2_3_2(pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m), (c, m))
GLIBC_2_3_2(pthread_cond_timedwait, (pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t), (c, m, t))
