/* Async-signal-safe wake-ups (POSIX requires sem_post to be one).
 *
 * A signal handler may interrupt its thread anywhere, including inside
 * the runtime with a wait-queue bucket lock or sched.lock held, or half
 * way through a run-queue operation on its own P.  So a wake-up asked for
 * from a handler takes no lock and touches no scheduler state: it counts
 * the request in a node embedded in the object, pushes the node on a
 * lock-free stack (once, while its count is non-zero), and wakes sysmon
 * with a futex word.  sysmon, a thread of its own holding no P, takes the
 * whole stack and wakes the parked Gs through the wait queues like any
 * waker, putting them on the global run queue.  The cost is a wake-up
 * delayed by a thread switch; it is paid only while a handler runs. */
#include <linux/futex.h>
#include <sys/syscall.h>

#include "fork.h"
#include "gsignal.h"
#include "proc.h"
#include "runtime.h"
#include "sema.h"
#include "sigwake.h"
#include "sys.h"
#include "sysmon.h"

uint32_t gmp_sigdepth;

static struct gmp_sigwake *deferred; /* Treiber stack, pushes only; sysmon takes it whole */
static uint32_t kick;                /* sysmon sleeps on it between ticks */

void gmp_sigwake_kick(void)
{
	if (__atomic_exchange_n(&kick, 1, __ATOMIC_SEQ_CST) == 0)
		gmp_syscall6(SYS_futex, (long)&kick, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}

void gmp_sigwake_defer(struct gmp_sigwake *w, const uint32_t *addr)
{
	w->off = (int32_t)((const char *)w - (const char *)addr);
	if (__atomic_fetch_add(&w->pending, 1, __ATOMIC_ACQ_REL) == 0) {
		struct gmp_sigwake *head = __atomic_load_n(&deferred, __ATOMIC_ACQUIRE);
		do
			w->next = head;
		while (!__atomic_compare_exchange_n(&deferred, &head, w, 1, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
	}
	gmp_sigwake_kick();
	gmp_sysmon_wake(); /* sysmon may be asleep because every P is idle */
}


/* The Gs handlers asked to interrupt (a process-directed signal forwarded
 * to the thread that takes it); sysmon interrupts their waits.  A stack as
 * the deferred wake-ups, each G on it once: several signals may be
 * forwarded to as many Gs before sysmon looks (a single slot kept only the
 * last of them, and the others slept on with the signal pending:
 * tests/integration/signal_takers, 212-280 of 320 reads). */
static struct g *to_interrupt;

void gmp_sigwake_interrupt(struct g *gp)
{
	if (__atomic_exchange_n(&gp->sigintrqueued, 1, __ATOMIC_ACQ_REL) == 0) {
		struct g *head = __atomic_load_n(&to_interrupt, __ATOMIC_ACQUIRE);
		do
			gp->sigintrlink = head;
		while (!__atomic_compare_exchange_n(&to_interrupt, &head, gp, 1, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
	}
	gmp_sigwake_kick();
	gmp_sysmon_wake();
}

bool gmp_sigwake_pending(void)
{
	return __atomic_load_n(&kick, __ATOMIC_SEQ_CST) != 0;
}

void gmp_sigwake_sleep(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };
	if (__atomic_load_n(&kick, __ATOMIC_ACQUIRE) == 0)
		gmp_syscall6(SYS_futex, (long)&kick, FUTEX_WAIT_PRIVATE, 0, (long)&ts, 0, 0);
}

void gmp_sigwake_drain(void)
{
	__atomic_store_n(&kick, 0, __ATOMIC_RELEASE);
	struct g *gp = __atomic_exchange_n(&to_interrupt, NULL, __ATOMIC_ACQ_REL);
	while (gp) {
		/* The link first: once off the list, a handler may push it again. */
		struct g *next = gp->sigintrlink;
		__atomic_store_n(&gp->sigintrqueued, 0, __ATOMIC_SEQ_CST);
		gmp_sig_parked(NULL, gp);
		gp = next;
	}
	struct gmp_sigwake *w = __atomic_exchange_n(&deferred, NULL, __ATOMIC_ACQ_REL);
	while (w) {
		/* Read the link first: once pending is zero, a handler may push
		 * the node again and overwrite it. */
		struct gmp_sigwake *next = w->next;
		const uint32_t *addr = (const uint32_t *)((const char *)w - w->off);
		uint32_t n = __atomic_exchange_n(&w->pending, 0, __ATOMIC_ACQ_REL);
		injectglist(gmp_futexwake_list(addr, (int)n));
		w = next;
	}
}

void sigwake_fork(enum gmp_fork_phase phase)
{
	if (phase != FORK_CHILD)
		return;
	/* The parent's sysmon will not drain for us; the waiters are gone. */
	for (struct gmp_sigwake *w = deferred; w; w = w->next)
		w->pending = 0;
	deferred = NULL;
	for (struct g *gp = to_interrupt; gp; gp = gp->sigintrlink)
		gp->sigintrqueued = 0;
	to_interrupt = NULL;
	kick = 0;
}
