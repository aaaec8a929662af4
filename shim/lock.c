#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <stdbool.h>
#include <time.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/realsym.h"
#include "lock.h"
#include "runtime.h"
#include "stack.h"
#include "sys.h"

long gmp_futex_wait_kernel(uint32_t *addr, uint32_t val, int64_t ns)
{
	struct timespec ts, *tsp = NULL;
	if (ns >= 0) {
		ts.tv_sec = ns / 1000000000;
		ts.tv_nsec = ns % 1000000000;
		tsp = &ts;
	}
	return gmp_syscall6(SYS_futex, (long)addr, FUTEX_WAIT_PRIVATE, val, (long)tsp, 0, 0);
}

/* Waits until CLOCK_REALTIME reads when (ns): -ETIMEDOUT then. */
static long futex_wait_realtime(uint32_t *addr, uint32_t val, int64_t when)
{
	struct timespec ts = { when / 1000000000, when % 1000000000 };
	return gmp_syscall6(SYS_futex, (long)addr, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, val, (long)&ts,
			    0, FUTEX_BITSET_MATCH_ANY);
}

long gmp_futex_wake_kernel(uint32_t *addr, int n)
{
	return gmp_syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n);
}

#define ACTIVE_SPIN 4
#define ACTIVE_SPIN_CNT 30

__thread uint32_t gmp_locks_held;

/* Whether the caller runs on the stack of the G its TLS names. */
static inline bool on_g_stack(void)
{
	struct g *gp = getg();
	return gp && gmp_sp_in_g(gp, gmp_arch_sp());
}

static void lock_slow(struct mutex *l);

/* Counted before the lock is taken and uncounted after it is dropped, as
 * the preemption signal may land between any two instructions. */
void lock(struct mutex *l)
{
	uint32_t *held = on_g_stack() ? &gmp_locks_held : NULL;
	if (held)
		++*held;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	uint32_t v = 0;
	if (!__atomic_compare_exchange_n(&l->key, &v, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		lock_slow(l);
	l->held = held;
}

static void lock_slow(struct mutex *l)
{
	uint32_t v;
	/* Spin a little: the holder is running on another M and the critical
	 * sections are short. */
	for (int i = 0; i < ACTIVE_SPIN; i++) {
		for (int j = 0; j < ACTIVE_SPIN_CNT; j++)
			gmp_arch_pause();
		v = 0;
		if (__atomic_compare_exchange_n(&l->key, &v, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
	}
	while (__atomic_exchange_n(&l->key, 2, __ATOMIC_ACQUIRE) != 0)
		gmp_futex_wait_kernel(&l->key, 2, -1);
}

/* A lock that a G took and another context drops (its g0 after the
 * switch: gopark's unlockf) is uncounted before the release, while that G
 * cannot run yet: after it, the G, readied and running on another M,
 * counted its own locks on the same word at the same time, and one of the
 * two plain updates could be lost.  A count stuck at 1 kept the G's
 * signals waiting for good (gc_suspend: a churner's suspend signal,
 * about 1 run in 550). */
void unlock(struct mutex *l)
{
	uint32_t *held = l->held;
	bool own = held == &gmp_locks_held && on_g_stack();
	if (held && !own)
		--*held;
	uint32_t v = __atomic_exchange_n(&l->key, 0, __ATOMIC_RELEASE);
	if (v == 0)
		gmp_throw("unlock of unlocked runtime lock");
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (own)
		--*held;
	if (v == 2)
		gmp_futex_wake_kernel(&l->key, 1);
}

/* Note states: 0 clear, 1 woken, 2 the sleeper is (about to be) in the
 * kernel.  A sleeper polls for a while before it declares itself asleep:
 * waking a thread parked in the kernel costs the waker a system call and,
 * on a VM, an IPI to an idle CPU, both on the critical path of every
 * hand-off to an idle M.  While the sleeper still polls, waking it is one
 * atomic store. */
#define NOTE_SPIN_NS 50000
#define NOTE_SPIN_MIN_NS 1000

void noteclear(struct note *n)
{
	__atomic_store_n(&n->key, 0, __ATOMIC_RELAXED);
}

void notewakeup(struct note *n)
{
	uint32_t old = __atomic_exchange_n(&n->key, 1, __ATOMIC_ACQ_REL);
	if (old == 1)
		gmp_throw("notewakeup: double wakeup");
	if (old == 2)
		gmp_futex_wake_kernel(&n->key, 1);
}

static int64_t mono_ns(void)
{
	struct timespec now;
	gmp_clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* Polls for up to limit_ns; true if woken meanwhile. */
static bool note_poll(struct note *n, int64_t limit_ns)
{
	int64_t end = mono_ns() + limit_ns;
	for (;;) {
		for (int i = 0; i < 64; i++) {
			if (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 1)
				return true;
			gmp_arch_pause();
		}
		if (mono_ns() >= end)
			return false;
	}
}

/* The poll before the futex sleep adapts to how soon this note's wake-ups
 * come, as an adaptive mutex's spinning does: a wake-up caught by the
 * poll, or one that came within twice the poll after it gave up (a poll
 * twice as long would have caught it), doubles the next poll (up to
 * NOTE_SPIN_NS); a later one, or a timeout, halves it (down to
 * NOTE_SPIN_MIN_NS).  A ping-pong keeps the full poll.  An M woken once
 * per request of a server whose requests come every few hundred us polls
 * 1 us: "soon" used to be anything within 1 ms, which kept such Ms
 * polling 50 us at every idle turn, for wake-ups that came later anyway
 * (memcached -t 4 at 5,000 requests/s: 22% of the server's CPU in the
 * poll, docs/design.md). */
static void note_adapt(struct note *n, bool soon)
{
	uint32_t s = n->spin ? n->spin : NOTE_SPIN_NS;
	if (soon)
		n->spin = s * 2 > NOTE_SPIN_NS ? NOTE_SPIN_NS : s * 2;
	else
		n->spin = s / 2 < NOTE_SPIN_MIN_NS ? NOTE_SPIN_MIN_NS : s / 2;
}

/* Sleeps in the kernel until woken or ns (< 0: forever) after start, or,
 * with realtime, until CLOCK_REALTIME reads ns. */
static int note_block(struct note *n, int64_t start, int64_t ns, int64_t soon_ns, bool realtime)
{
	uint32_t zero = 0;
	if (!__atomic_compare_exchange_n(&n->key, &zero, 2, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return 1; /* woken between the last poll and now */
	for (;;) {
		if (realtime) {
			long r = futex_wait_realtime(&n->key, 2, ns);
			if (r == -ETIMEDOUT || r == -EINVAL)
				break;
		} else {
			int64_t left = -1;
			if (ns >= 0) {
				left = start + ns - mono_ns();
				if (left <= 0)
					break;
			}
			gmp_futex_wait_kernel(&n->key, 2, left);
		}
		if (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 1) {
			if (soon_ns >= 0)
				note_adapt(n, mono_ns() - start <= soon_ns);
			return 1;
		}
	}
	/* Timed out: step back from 2 to 0 unless a wake-up got there first.
	 * A sleep that ends at its deadline (an idle M watching the timers)
	 * was not shortened by the poll, which halves: polling the whole
	 * poll before every timer wasted a tenth of a CPU on memcached's 1 ms
	 * sleeps (docs/design.md, Event loops). */
	uint32_t two = 2;
	if (__atomic_compare_exchange_n(&n->key, &two, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		if (soon_ns >= 0)
			note_adapt(n, false);
		return 0;
	}
	return 1;
}

int notetsleep(struct note *n, int64_t ns)
{
	int64_t start = mono_ns();
	int64_t poll = n->spin ? n->spin : NOTE_SPIN_NS;
	if (note_poll(n, ns >= 0 && ns < poll ? ns : poll)) {
		note_adapt(n, true);
		return 1;
	}
	return note_block(n, start, ns, 3 * poll, false);
}

int notetsleep_realtime(struct note *n, int64_t when)
{
	return note_block(n, 0, when, -1, true);
}

void notesleep_nospin(struct note *n)
{
	note_block(n, 0, -1, -1, false);
}

void notesleep(struct note *n)
{
	notetsleep(n, -1);
}
