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

#include "export.h"
#include "shim/cancel.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/sigwake.h"

struct gmp_sem {
	uint32_t value;
	uint32_t nwaiters;
	int private; /* glibc: 0, or SEM_SHARED if process-shared */
	int pad;
	struct gmp_sigwake sigwake; /* wake-ups deferred from signal handlers */
};
_Static_assert(sizeof(struct gmp_sem) <= sizeof(sem_t), "sem_t overlay");
#define S(s) ((struct gmp_sem *)(s))
#define SEM_SHARED 128

struct real_sem {
	int (*wait)(sem_t *);
	int (*trywait)(sem_t *);
	int (*timedwait)(sem_t *, const struct timespec *);
	int (*clockwait)(sem_t *, clockid_t, const struct timespec *);
	int (*post)(sem_t *);
	int (*getvalue)(sem_t *, int *);
	int (*init)(sem_t *, int, unsigned);
};
static struct real_sem real;

#include <dlfcn.h>
static void real_init(void)
{
	if (real.wait)
		return;
	real.trywait = dlsym(RTLD_NEXT, "sem_trywait");
	real.timedwait = dlsym(RTLD_NEXT, "sem_timedwait");
	real.clockwait = dlsym(RTLD_NEXT, "sem_clockwait");
	real.post = dlsym(RTLD_NEXT, "sem_post");
	real.getvalue = dlsym(RTLD_NEXT, "sem_getvalue");
	real.init = dlsym(RTLD_NEXT, "sem_init");
	__atomic_store_n(&real.wait, dlsym(RTLD_NEXT, "sem_wait"), __ATOMIC_RELEASE);
}

static inline bool ours(sem_t *s)
{
	return gmp_initialized && S(s)->private != SEM_SHARED;
}

GMP_EXPORT int sem_init(sem_t *s, int pshared, unsigned value)
{
	gmp_ensure_init();
	real_init();
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (pshared)
		return real.init(s, pshared, value);
	*S(s) = (struct gmp_sem){ .value = value };
	return 0;
}

static int trydec(struct gmp_sem *s)
{
	uint32_t v = __atomic_load_n(&s->value, __ATOMIC_ACQUIRE);
	while (v > 0) {
		if (__atomic_compare_exchange_n(&s->value, &v, v - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return 0;
	}
	return EAGAIN;
}

static int wait_common(struct gmp_sem *s, int64_t deadline)
{
	for (;;) {
		if (trydec(s) == 0)
			return 0;
		__atomic_add_fetch(&s->nwaiters, 1, __ATOMIC_ACQ_REL);
		int err = gmp_futexwait(&s->value, 0, deadline, WAIT_SEMA);
		__atomic_sub_fetch(&s->nwaiters, 1, __ATOMIC_ACQ_REL);
		if (err == EINTR)
			return EINTR; /* a semaphore wait is never restarted (signal(7)) */
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

/* A process-shared or named semaphore: glibc's, tried without syscall
 * state first, then waited for with the M in a syscall.  errno is the
 * G's own (its TLS), so it survives exitsyscall. */
static int kernel_wait(sem_t *s, clockid_t clk, const struct timespec *abstime)
{
	if (real.trywait(s) == 0)
		return 0;
	if (errno != EAGAIN)
		return -1;
	return GMP_BLOCKING_CALL(abstime ? real.clockwait(s, clk, abstime) : real.wait(s));
}

GMP_EXPORT int sem_wait(sem_t *s)
{
	GMP_CANCEL_POINT;
	real_init();
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, 0, NULL) : real.wait(s);
	return fail(wait_common(S(s), -1));
}

GMP_EXPORT int sem_trywait(sem_t *s)
{
	real_init();
	if (!ours(s))
		return real.trywait(s);
	return fail(trydec(S(s)));
}

GMP_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	real_init();
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, clk, abstime) : real.clockwait(s, clk, abstime);
	if (trydec(S(s)) == 0)
		return 0;
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	if (err)
		return fail(err);
	return fail(wait_common(S(s), deadline));
}

GMP_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	real_init();
	if (!ours(s))
		return gmp_initialized ? kernel_wait(s, CLOCK_REALTIME, abstime) : real.timedwait(s, abstime);
	return sem_clockwait(s, CLOCK_REALTIME, abstime);
}

GMP_EXPORT int sem_post(sem_t *s)
{
	real_init();
	if (!ours(s))
		return real.post(s); /* glibc's: an atomic and a futex wake */
	struct gmp_sem *sp = S(s);
	uint32_t v = __atomic_load_n(&sp->value, __ATOMIC_ACQUIRE);
	do {
		if (v >= SEM_VALUE_MAX)
			return fail(EOVERFLOW);
	} while (!__atomic_compare_exchange_n(&sp->value, &v, v + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if (__atomic_load_n(&sp->nwaiters, __ATOMIC_ACQUIRE) == 0)
		return 0;
	/* A handler is running (maybe on this thread, maybe interrupting us
	 * inside the runtime): hand the wake-up to sysmon. */
	if (__atomic_load_n(&gmp_sigdepth, __ATOMIC_ACQUIRE) != 0)
		gmp_sigwake_defer(&sp->sigwake, &sp->value);
	else
		gmp_futexwake(&sp->value, 1);
	return 0;
}

GMP_EXPORT int sem_getvalue(sem_t *s, int *out)
{
	real_init();
	if (!ours(s))
		return real.getvalue(s, out);
	*out = (int)__atomic_load_n(&S(s)->value, __ATOMIC_ACQUIRE);
	return 0;
}

GMP_EXPORT int sem_destroy(sem_t *s)
{
	if (!ours(s))
		return 0;
	if (gmp_semq_count(&S(s)->value) > 0)
		return fail(EBUSY);
	/* A wake-up deferred from a handler still refers to the object. */
	while (gmp_sigwake_busy(&S(s)->sigwake))
		sched_yield();
	return 0;
}
