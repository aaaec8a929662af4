/* futex(2) on private futexes, in user space: what Rust's std and
 * libstdc++'s atomic waits issue through syscall().  Waiters park on the
 * address-keyed wait queues, so a thread waiting on a futex parks its G
 * instead of blocking the M.  Shared futexes and the operations we do not
 * model (PI, WAKE_OP, ...) go to the kernel. */
#include <errno.h>
#include <linux/futex.h>
#include <time.h>

#include "compat/realsym.h"
#include "futex.h"
#include "netpoll.h"
#include "runtime.h"
#include "sema.h"
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

bool gmp_futex_handled(int op)
{
	if (!(op & FUTEX_PRIVATE_FLAG))
		return false;
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAIT:
	case FUTEX_WAKE:
	case FUTEX_WAIT_BITSET:
	case FUTEX_WAKE_BITSET:
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE:
		return true;
	default:
		return false;
	}
}

/* Returns what the system call would: a count, 0, or -errno. */
long gmp_sys_futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	int64_t deadline = -1;
	int err;
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
		/* Absolute, on CLOCK_MONOTONIC or, with the flag, CLOCK_REALTIME. */
		if (val3 == 0)
			return -EINVAL;
		if (timeout) {
			if (bad_timespec(timeout))
				return -EINVAL;
			/* Absolute times decades away never come: -1. */
			if (op & FUTEX_CLOCK_REALTIME) {
				/* The kernel's realtime wait follows clock changes. */
				gmp_netpoll_watch_clock();
				if (timeout->tv_sec < (GMP_DEADLINE_REALTIME - 1) / 1000000000LL)
					deadline = GMP_DEADLINE_REALTIME | ts_ns(timeout);
			} else {
				struct timespec now;
				gmp_clock_gettime(CLOCK_MONOTONIC, &now);
				if (timeout->tv_sec - now.tv_sec < FOREVER_SEC)
					deadline = gmp_nanotime() + (ts_ns(timeout) - ts_ns(&now));
			}
		}
		err = gmp_futexwait_bits(uaddr, val, deadline, WAIT_FUTEX, val3);
		return err ? -err : 0;
	case FUTEX_WAKE:
		return gmp_futexwake_bits(uaddr, (int)(val > 0x7fffffff ? 0x7fffffff : val), FUTEX_BITSET_MATCH_ANY);
	case FUTEX_WAKE_BITSET:
		if (val3 == 0)
			return -EINVAL;
		return gmp_futexwake_bits(uaddr, (int)(val > 0x7fffffff ? 0x7fffffff : val), val3);
	case FUTEX_REQUEUE:
	case FUTEX_CMP_REQUEUE: {
		/* The fourth argument is a count here, not a timespec. */
		long nmove = (long)(uintptr_t)timeout;
		if ((int)val < 0 || nmove < 0)
			return -EINVAL;
		int n = gmp_futexrequeue(uaddr, (int)val, uaddr2, (int)(nmove > 0x7fffffff ? 0x7fffffff : nmove),
					 cmd == FUTEX_CMP_REQUEUE ? &val3 : NULL);
		if (n < 0)
			return n;
		/* The kernel counts only the woken for a plain REQUEUE. */
		return cmd == FUTEX_REQUEUE ? (n < (int)val ? n : (int)val) : n;
	}
	}
	return -ENOSYS;
}
