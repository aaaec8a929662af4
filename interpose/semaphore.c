/* Unnamed process-private semaphores park the G.  The layout is glibc's
 * (value in the low word, waiter count in the next, then glibc's "private"
 * word, which is 0 for a process-private semaphore and FUTEX_PRIVATE_FLAG
 * (128) for a shared one: glibc XORs it into the futex operation), so
 * process-shared ones and named ones (sem_open maps one with glibc's
 * layout) stay glibc's on kernel futexes, shared with other processes;
 * their waits block the M between entersyscall and exitsyscall.
 *
 * sem_post is async-signal-safe: while a signal handler of the program
 * runs, a post that must wake a parked G defers the wake-up to sysmon
 * (shim/sigwake.c) instead of taking a wait-queue lock its own thread may
 * hold. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <semaphore.h>

#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/sigwake.h"
#include "shim/rtprio.h"
#include "shim/syscall.h"

/* glibc's words first (compat/layout.h), then the runtime's own. */
struct gmp_sem {
	struct gmp_sem_glibc glibc;
	struct gmp_sigwake sigwake; /* wake-ups deferred from signal handlers */
};
_Static_assert(sizeof(struct gmp_sem) <= sizeof(sem_t), "sem_t overlay");
#define S(s) ((struct gmp_sem *)(s))

static inline bool ours(sem_t *s)
{
	return gmp_initialized && S(s)->glibc.private != GMP_SEM_SHARED;
}

GMP_EXPORT int sem_init(sem_t *s, int pshared, unsigned value)
{
	gmp_ensure_init();
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (pshared)
		return GMP_REAL(sem_init)(s, pshared, value);
	*S(s) = (struct gmp_sem){ .glibc.value = value };
	return 0;
}

static int trydec(struct gmp_sem *s)
{
	uint32_t v = __atomic_load_n(&s->glibc.value, __ATOMIC_ACQUIRE);
	while (v > 0) {
		if (__atomic_compare_exchange_n(&s->glibc.value, &v, v - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 0;
	}
	return EAGAIN;
}

static int wait_common(struct gmp_sem *s, int64_t deadline)
{
	for (;;) {
		if (trydec(s) == 0)
			return 0;
		__atomic_add_fetch(&s->glibc.nwaiters, 1, __ATOMIC_ACQ_REL);
		int err = gmp_futexwait(&s->glibc.value, 0, deadline, WAIT_SEMA);
		__atomic_sub_fetch(&s->glibc.nwaiters, 1, __ATOMIC_ACQ_REL);
		/* The kernel restarts glibc's untimed futex wait after a handler
		 * with SA_RESTART (ERESTARTSYS), never a timed one
		 * (ERESTART_RESTARTBLOCK): sem_wait goes on waiting, as
		 * natively, whatever signal(7) says. */
		struct g *gp = getg();
		if (err == EINTR && (deadline >= 0 || gp == NULL || !gp->sigrestart || gmp_cancel_requested(gp)))
			return EINTR;
		if (err == ETIMEDOUT) {
			if (trydec(s) == 0)
				return 0;
			return ETIMEDOUT;
		}
	}
}

static int fail(int err)
{
	if (err == 0)
		return 0;
	errno = err;
	return -1;
}

#define LIBC_EINTR(r) ((r) == -1 && errno == EINTR)

/* A process-shared or named semaphore: glibc's, tried without syscall
 * state first, then waited for with the M in a syscall.  errno is the
 * G's own (its TLS), so it survives exitsyscall. */
static int kernel_wait(sem_t *s, clockid_t clk, const struct timespec *abstime)
{
	if (GMP_REAL(sem_trywait)(s) == 0)
		return 0;
	if (errno != EAGAIN)
		return -1;
	return GMP_BLOCKING_WAIT(abstime ? GMP_REAL(sem_clockwait)(s, clk, abstime) : GMP_REAL(sem_wait)(s), LIBC_EINTR);
}

GMP_EXPORT int sem_wait(sem_t *s)
{
	GMP_CANCEL_POINT;
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, 0, NULL) : GMP_REAL(sem_wait)(s);
	return fail(wait_common(S(s), -1));
}

GMP_EXPORT int sem_trywait(sem_t *s)
{
	if (!ours(s))
		return GMP_REAL(sem_trywait)(s);
	return fail(trydec(S(s)));
}

GMP_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, clk, abstime) : GMP_REAL(sem_clockwait)(s, clk, abstime);
	/* The time is checked first, as glibc does (POSIX also lets a free
	 * semaphore be taken without looking at it). */
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	if (err)
		return fail(err);
	if (trydec(S(s)) == 0)
		return 0;
	return fail(wait_common(S(s), deadline));
}

GMP_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, CLOCK_REALTIME, abstime) : GMP_REAL(sem_timedwait)(s, abstime);
	return sem_clockwait(s, CLOCK_REALTIME, abstime);
}

GMP_EXPORT int sem_post(sem_t *s)
{
	if (!ours(s))
		return GMP_REAL(sem_post)(s); /* glibc's: an atomic and a futex wake */
	struct gmp_sem *sp = S(s);
	uint32_t v = __atomic_load_n(&sp->glibc.value, __ATOMIC_ACQUIRE);
	do {
		if (v >= SEM_VALUE_MAX)
			return fail(EOVERFLOW);
	} while (!__atomic_compare_exchange_n(&sp->glibc.value, &v, v + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if (__atomic_load_n(&sp->glibc.nwaiters, __ATOMIC_ACQUIRE) == 0)
		return 0;
	/* A handler is running (maybe on this thread, maybe interrupting us
	 * inside the runtime): hand the wake-up to sysmon. */
	if (__atomic_load_n(&gmp_sigdepth, __ATOMIC_ACQUIRE) != 0)
		gmp_sigwake_defer(&sp->sigwake, &sp->glibc.value);
	else
		gmp_futexwake(&sp->glibc.value, 1);
	gmp_rt_preempt_point(); /* a realtime waiter above us runs now */
	return 0;
}

GMP_EXPORT int sem_getvalue(sem_t *s, int *out)
{
	if (!ours(s))
		return GMP_REAL(sem_getvalue)(s, out);
	*out = (int)__atomic_load_n(&S(s)->glibc.value, __ATOMIC_ACQUIRE);
	return 0;
}

GMP_EXPORT int sem_destroy(sem_t *s)
{
	if (!ours(s))
		return 0;
	/* Waiters parked on it stay parked, as on glibc's futex, which also
	 * returns 0 here.  A wake-up deferred from a handler still refers to
	 * the object: it must be done before the memory may go. */
	while (gmp_sigwake_busy(&S(s)->sigwake))
		sched_yield();
	return 0;
}
