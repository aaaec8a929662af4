/* Runtime-internal locks and notes (Go's lock_futex.go).  These block the
 * M, so they are held only for short critical sections of the runtime. */
#ifndef GMP_LOCK_H
#define GMP_LOCK_H

#include <stdint.h>

struct mutex {
	uint32_t key;     /* 0 unlocked, 1 locked, 2 locked with sleepers */
	uint32_t *held;   /* the holder took it on a G's stack: that G's gmp_locks_held */
};

/* A one-shot wake-up: notesleep blocks the M until notewakeup. */
struct note {
	uint32_t key;
	uint32_t spin; /* how long the sleeper polls first (ns); 0: the most */
};

void lock(struct mutex *l);
void unlock(struct mutex *l);

/* Runtime locks a G holds, taken on its own stack (Go's m.locks): such a
 * G is never switched out by a preemption, and no handler of the
 * program's runs on it (gsignal.h, gmp_sig_must_wait).  In the G's
 * static TLS.  Locks taken on g0 are not counted: there the FS base is
 * still that of the last G, which may run on another M by then.  A lock
 * a G takes before parking and its g0 drops after the switch is uncounted
 * from that G's count, wherever the FS base points by then: the lock
 * keeps the address (uncounting through the FS base took sched.lock,
 * dropped after the switch to the next G, off that G's count, which
 * wrapped to 2^32-1 and held its signals back for good). */
extern __thread uint32_t gmp_locks_held;

void noteclear(struct note *n);
void notesleep(struct note *n);
/* Returns 1 if woken, 0 if ns elapsed first.  ns < 0 sleeps forever. */
int notetsleep(struct note *n, int64_t ns);
/* notetsleep until CLOCK_REALTIME reads when (ns since the epoch), without
 * the poll.  The kernel's timer follows changes of the clock, so nothing
 * needs to wake up to look at it meanwhile. */
int notetsleep_realtime(struct note *n, int64_t when);
void notewakeup(struct note *n);
/* notesleep without the poll: for sleepers whose wake-up latency matters
 * to nobody (sysmon, the template thread), where polling is pure cost. */
void notesleep_nospin(struct note *n);

/* Raw private futex calls: they block the whole M, never just a G. */
long gmp_futex_wait_kernel(uint32_t *addr, uint32_t val, int64_t ns);
long gmp_futex_wake_kernel(uint32_t *addr, int n);

#endif
