/* futex(2) through syscall(): what Rust's std, libstdc++'s atomic waits
 * (std::barrier, std::latch, std::counting_semaphore, atomic::wait) and
 * hand-written locks issue.
 *
 * Where the waiters of a word live decides everything.  A word in memory
 * only this process maps (anonymous, MAP_PRIVATE, stacks, heap, data) can
 * be waited on by this process alone, whether or not the call carries
 * FUTEX_PRIVATE_FLAG: its waiters park as Gs on the address-keyed wait
 * queues (sema.c), and every operation, PI ones included, runs in user
 * space.  A word in a MAP_SHARED mapping may be waited on and woken by
 * other processes, which only the kernel's queues reach: every operation
 * on it goes to the kernel, the blocking ones between entersyscall and
 * exitsyscall, so the M blocks and sysmon hands its P on.  The private
 * flag is trusted (the kernel too keys such a futex on this process);
 * without it the mapping is looked up (mapkind.c). */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "compat/realsym.h"
#include "futex.h"
#include "mapkind.h"
#include "netpoll.h"
#include "sema.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

/* Timeouts further than this (about 31 years) are taken as none. */
#define FOREVER_SEC 1000000000LL

static int64_t ts_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static bool bad_timespec(const struct timespec *ts)
{
	return ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000L;
}

int64_t gmp_futex_abs_deadline(const struct timespec *ts, bool realtime, int *err)
{
	if (ts == NULL)
		return -1;
	if (bad_timespec(ts)) {
		*err = EINVAL;
		return -1;
	}
	if (realtime) {
		/* The kernel's realtime wait follows clock changes. */
		gmp_netpoll_watch_clock();
		return ts->tv_sec < (GMP_DEADLINE_REALTIME - 1) / 1000000000LL ? GMP_DEADLINE_REALTIME | ts_ns(ts)
										   : -1;
	}
	struct timespec now;
	gmp_clock_gettime(CLOCK_MONOTONIC, &now);
	if (ts->tv_sec - now.tv_sec >= FOREVER_SEC)
		return -1;
	int64_t left = ts_ns(ts) - ts_ns(&now);
	return gmp_nanotime() + (left < 0 ? 0 : left);
}

static int clamp(uint32_t n)
{
	return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

/* Where the waiters of uaddr queue: MAPKIND_PRIVATE (here, as Gs),
 * MAPKIND_SHARED (the kernel) or MAPKIND_NONE (EFAULT). */
static enum mapkind where(const uint32_t *uaddr, int op)
{
	return op & FUTEX_PRIVATE_FLAG ? MAPKIND_PRIVATE : gmp_mapkind(uaddr);
}

static long kernel_futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout, uint32_t *uaddr2,
			 uint32_t val3)
{
	return gmp_syscall6(SYS_futex, (long)uaddr, op, val, (long)timeout, (long)uaddr2, val3);
}

static bool blocks(int cmd)
{
	switch (cmd) {
	case FUTEX_WAIT:
	case FUTEX_WAIT_BITSET:
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_WAIT_REQUEUE_PI:
		return true;
	}
	return false;
}

/* Wakes n waiters with bits on a word whose waiters are where kind says. */
static long wake(uint32_t *uaddr, enum mapkind kind, int n, uint32_t bits)
{
	if (kind == MAPKIND_SHARED)
		return kernel_futex(uaddr, FUTEX_WAKE_BITSET, (uint32_t)n, NULL, NULL, bits);
	return gmp_futexwake_bits(uaddr, n, bits);
}

/* FUTEX_WAKE_OP's operation on *uaddr2, done atomically; returns the old
 * value, or sets *err (ENOSYS for an unknown operation). */
static uint32_t wake_op_apply(uint32_t *uaddr2, uint32_t encoded, int *err)
{
	int op = (encoded >> 28) & 7;
	int32_t oparg = (int32_t)(encoded << 8) >> 20; /* 12 bits, sign-extended */
	if (encoded & (FUTEX_OP_OPARG_SHIFT << 28))
		oparg = (int32_t)(1u << (oparg & 31)); /* the kernel too takes the shift mod 32 */
	uint32_t old = __atomic_load_n(uaddr2, __ATOMIC_RELAXED), val;
	do {
		switch (op) {
		case FUTEX_OP_SET: val = (uint32_t)oparg; break;
		case FUTEX_OP_ADD: val = old + (uint32_t)oparg; break;
		case FUTEX_OP_OR: val = old | (uint32_t)oparg; break;
		case FUTEX_OP_ANDN: val = old & ~(uint32_t)oparg; break;
		case FUTEX_OP_XOR: val = old ^ (uint32_t)oparg; break;
		default: *err = ENOSYS; return 0;
		}
	} while (!__atomic_compare_exchange_n(uaddr2, &old, val, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	return old;
}

static int wake_op_cmp(uint32_t encoded, uint32_t oldval, int *err)
{
	int32_t old = (int32_t)oldval, arg = (int32_t)(encoded << 20) >> 20;
	switch ((encoded >> 24) & 15) {
	case FUTEX_OP_CMP_EQ: return old == arg;
	case FUTEX_OP_CMP_NE: return old != arg;
	case FUTEX_OP_CMP_LT: return old < arg;
	case FUTEX_OP_CMP_LE: return old <= arg;
	case FUTEX_OP_CMP_GT: return old > arg;
	case FUTEX_OP_CMP_GE: return old >= arg;
	}
	*err = ENOSYS;
	return 0;
}

static long wake_op(uint32_t *uaddr, enum mapkind k1, int n1, uint32_t *uaddr2, enum mapkind k2, int n2,
		    uint32_t encoded)
{
	int err = 0;
	int op = (encoded >> 28) & 7, cmp = (encoded >> 24) & 15;
	if (op > FUTEX_OP_XOR || cmp > FUTEX_OP_CMP_GE)
		return -ENOSYS; /* before touching anything, as the kernel */
	/* The operation first, then the wake-ups: a waiter either queued
	 * before the change (and is woken) or sees the new value. */
	uint32_t old = wake_op_apply(uaddr2, encoded, &err);
	long woken = wake(uaddr, k1, n1, FUTEX_BITSET_MATCH_ANY);
	if (wake_op_cmp(encoded, old, &err))
		woken += wake(uaddr2, k2, n2, FUTEX_BITSET_MATCH_ANY);
	return err ? -err : woken;
}

/* A requeue between a word whose waiters park here and one whose waiters
 * are the kernel's cannot move a waiter across: the ones it would move
 * are woken instead (a spurious wake-up, which every futex user
 * tolerates), and the counts stay those of the requeue. */
static long requeue_across(uint32_t *uaddr, enum mapkind k1, int nwake, int nmove, const uint32_t *cmpval)
{
	int n = nwake + nmove < 0 ? 0x7fffffff : nwake + nmove;
	if (k1 == MAPKIND_SHARED)
		return cmpval ? kernel_futex(uaddr, FUTEX_CMP_REQUEUE, (uint32_t)n, 0, uaddr, *cmpval)
			      : kernel_futex(uaddr, FUTEX_WAKE, (uint32_t)n, NULL, NULL, 0);
	return gmp_futexrequeue(uaddr, n, uaddr, 0, cmpval);
}

static long futex_here(uint32_t *uaddr, int op, uint32_t val, const struct timespec *timeout, uint32_t *uaddr2,
		       enum mapkind k2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK, err = 0;
	int64_t deadline = -1;
	switch (cmd) {
	case FUTEX_WAIT:
		/* Relative, measured on CLOCK_MONOTONIC. */
		if (timeout) {
			if (bad_timespec(timeout))
				return -EINVAL;
			if (timeout->tv_sec < FOREVER_SEC)
				deadline = gmp_nanotime() + ts_ns(timeout);
		}
		err = gmp_futexwait_bits(uaddr, val, deadline, WAIT_FUTEX, FUTEX_BITSET_MATCH_ANY);
		return err ? -err : 0;
	case FUTEX_WAIT_BITSET:
		if (val3 == 0)
			return -EINVAL;
		deadline = gmp_futex_abs_deadline(timeout, op & FUTEX_CLOCK_REALTIME, &err);
		if (err)
			return -err;
		err = gmp_futexwait_bits(uaddr, val, deadline, WAIT_FUTEX, val3);
		return err ? -err : 0;
	case FUTEX_WAKE:
		return gmp_futexwake_bits(uaddr, clamp(val), FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		if (val3 == 0)
			return -EINVAL;
		return gmp_futexwake_bits(uaddr, clamp(val), val3);
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE: {
		/* The fourth argument is a count here, not a timespec. */
		long nmove = (long)(uintptr_t)timeout;
		if ((int)val < 0 || (int)nmove < 0)
			return -EINVAL;
		const uint32_t *cmpval = cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL;
		long n = k2 == MAPKIND_PRIVATE ? gmp_futexrequeue(uaddr, (int)val, uaddr2, (int)nmove, cmpval)
					       : requeue_across(uaddr, MAPKIND_PRIVATE, (int)val, (int)nmove, cmpval);
		return n; /* woken + moved, for REQUEUE as for CMP_REQUEUE */
	}
	case FUTEX_WAKE_OP:
		return wake_op(uaddr, MAPKIND_PRIVATE, clamp(val), uaddr2, k2, clamp((uint32_t)(uintptr_t)timeout),
			       val3);
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
		/* LOCK_PI's absolute timeout is always on CLOCK_REALTIME;
		 * LOCK_PI2's on CLOCK_MONOTONIC unless the flag says otherwise. */
		deadline = gmp_futex_abs_deadline(timeout, cmd == FUTEX_LOCK_PI || (op & FUTEX_CLOCK_REALTIME), &err);
		if (err)
			return -err;
		return gmp_futex_lock_pi(uaddr, deadline, false);
	case FUTEX_TRYLOCK_PI:
		return gmp_futex_lock_pi(uaddr, -1, true);
	case FUTEX_UNLOCK_PI:
		return gmp_futex_unlock_pi(uaddr);
	case FUTEX_WAIT_REQUEUE_PI:
		if (k2 != MAPKIND_PRIVATE)
			return k2 == MAPKIND_NONE ? -EFAULT : -EINVAL;
		deadline = gmp_futex_abs_deadline(timeout, op & FUTEX_CLOCK_REALTIME, &err);
		if (err)
			return -err;
		return gmp_futex_wait_requeue_pi(uaddr, val, deadline, uaddr2);
	case FUTEX_CMP_REQUEUE_PI: {
		long nmove = (long)(uintptr_t)timeout;
		if (k2 != MAPKIND_PRIVATE)
			return k2 == MAPKIND_NONE ? -EFAULT : -EINVAL;
		if ((int)nmove < 0)
			return -EINVAL;
		return gmp_futex_cmp_requeue_pi(uaddr, (int)val, uaddr2, (int)nmove, val3);
	}
	}
	return -ENOSYS;
}

static bool has_uaddr2(int cmd)
{
	return cmd == FUTEX_REQUEUE || cmd == FUTEX_CMP_REQUEUE || cmd == FUTEX_WAKE_OP ||
	       cmd == FUTEX_WAIT_REQUEUE_PI || cmd == FUTEX_CMP_REQUEUE_PI;
}

static bool is_pi(int cmd)
{
	return cmd == FUTEX_LOCK_PI || cmd == FUTEX_LOCK_PI2 || cmd == FUTEX_TRYLOCK_PI || cmd == FUTEX_UNLOCK_PI ||
	       cmd == FUTEX_WAIT_REQUEUE_PI || cmd == FUTEX_CMP_REQUEUE_PI;
}

long gmp_sys_futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	if (cmd > FUTEX_LOCK_PI2)
		return -ENOSYS;
	if ((uintptr_t)uaddr % 4 != 0 || (has_uaddr2(cmd) && (uintptr_t)uaddr2 % 4 != 0))
		return -EINVAL;
	enum mapkind k1 = where(uaddr, op);
	enum mapkind k2 = has_uaddr2(cmd) ? where(uaddr2, op) : MAPKIND_PRIVATE;
	if (k1 == MAPKIND_NONE || k2 == MAPKIND_NONE)
		return -EFAULT;
	if (k1 == MAPKIND_PRIVATE)
		return futex_here(uaddr, op, val, timeout, uaddr2, k2, val3);

	/* The word is in a MAP_SHARED mapping: the kernel's. */
	if (is_pi(cmd)) {
		/* The kernel's PI futexes name owners by kernel TID: a G has
		 * none of its own, and no M may be told to block on a word
		 * a parked G owns.  Loudly unsupported (docs/compat.md). */
		gmp_unsupported("futex: PI operation on a word in MAP_SHARED memory (ENOSYS)");
		return -ENOSYS;
	}
	if ((cmd == FUTEX_REQUEUE || cmd == FUTEX_CMP_REQUEUE) && k2 != MAPKIND_SHARED) {
		long nmove = (long)(uintptr_t)timeout;
		if ((int)val < 0 || (int)nmove < 0)
			return -EINVAL;
		return requeue_across(uaddr, MAPKIND_SHARED, (int)val, (int)nmove,
				      cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL);
	}
	if (cmd == FUTEX_WAKE_OP && k2 != MAPKIND_SHARED)
		return wake_op(uaddr, MAPKIND_SHARED, clamp(val), uaddr2, k2, clamp((uint32_t)(uintptr_t)timeout),
			       val3);
	if (blocks(cmd))
		return gmp_blocking_syscall6(SYS_futex, (long)uaddr, op, val, (long)timeout, (long)uaddr2, val3);
	return kernel_futex(uaddr, op, val, timeout, uaddr2, val3);
}

/* --- futex2 (Linux 6.7): futex_wake, futex_wait, futex_requeue --- */

/* The flags futex2 takes for a plain 32-bit word; anything else (other
 * sizes, NUMA words) is the kernel's alone. */
#define FUTEX2_U32 0x02
#define FUTEX2_PRIV FUTEX_PRIVATE_FLAG

static bool futex2_u32(unsigned long flags)
{
	return (flags & ~(unsigned long)FUTEX2_PRIV) == FUTEX2_U32;
}

long gmp_sys_futex2(long nr, const long *a)
{
	switch (nr) {
	case GMP_SYS_futex_wake: /* (uaddr, mask, nr, flags) */
		if (!futex2_u32((unsigned long)a[3]))
			break;
		if ((unsigned long)a[1] > UINT32_MAX || (int)a[2] < 0)
			return -EINVAL;
		return gmp_sys_futex((uint32_t *)a[0], FUTEX_WAKE_BITSET | (int)(a[3] & FUTEX2_PRIV), (uint32_t)a[2],
				     NULL, NULL, (uint32_t)a[1]);
	case GMP_SYS_futex_wait: { /* (uaddr, val, mask, flags, timeout, clockid) */
		if (!futex2_u32((unsigned long)a[3]))
			break;
		if ((unsigned long)a[1] > UINT32_MAX || (unsigned long)a[2] > UINT32_MAX)
			return -EINVAL;
		if (a[4] && a[5] != CLOCK_MONOTONIC && a[5] != CLOCK_REALTIME)
			return -EINVAL;
		int op = FUTEX_WAIT_BITSET | (int)(a[3] & FUTEX2_PRIV) | (a[5] == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
		return gmp_sys_futex((uint32_t *)a[0], op, (uint32_t)a[1], (const struct timespec *)a[4], NULL,
				     (uint32_t)a[2]);
	}
	case GMP_SYS_futex_requeue: { /* (waitv[2], flags, nr_wake, nr_requeue) */
		const struct { uint64_t val, uaddr; uint32_t flags, reserved; } *w = (const void *)a[0];
		if (w == NULL || a[1] != 0)
			return -EINVAL;
		if (!futex2_u32(w[0].flags) || !futex2_u32(w[1].flags))
			break;
		if (w[0].reserved || w[1].reserved || w[0].val > UINT32_MAX)
			return -EINVAL;
		/* Private only if both are: else each word's mapping decides. */
		int op = FUTEX_CMP_REQUEUE | (int)(w[0].flags & w[1].flags & FUTEX2_PRIV);
		return gmp_sys_futex((uint32_t *)(uintptr_t)w[0].uaddr, op, (uint32_t)a[2], (void *)(uintptr_t)(int)a[3],
				     (uint32_t *)(uintptr_t)w[1].uaddr, (uint32_t)w[0].val);
	}
	}
	return nr == GMP_SYS_futex_wait ? gmp_blocking_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5])
					: gmp_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
