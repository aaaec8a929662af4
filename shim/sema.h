/* Address-keyed wait queues, the model being Go's semaphore table: the
 * user's pthread object holds only a state word, and the Gs waiting on it
 * live here, in a bucket chosen by the object's address.  The primitive
 * is a user-space futex: a G parks on an address only if the word there
 * still holds the value it expects, checked under the bucket lock that a
 * waker must take after changing the word.  No wake-up can be lost. */
#ifndef GMP_SEMA_H
#define GMP_SEMA_H

#include <stdint.h>

#include "runtime.h"

/* Parks the running G on addr while *addr == val.  Returns 0 when woken,
 * EAGAIN if the word already differed, ETIMEDOUT once deadline (monotonic
 * ns; -1 for none) passes, EINTR once a signal sent to the thread has
 * been handled (g->sigrestart says whether the handlers restart calls). */
int gmp_futexwait(const uint32_t *addr, uint32_t val, int64_t deadline, enum waitreason why);
/* Wakes up to n Gs parked on addr (G context).  Returns how many. */
int gmp_futexwake(const void *addr, int n);
/* Dequeues up to n Gs parked on addr and returns them linked through
 * schedlink, not yet ready (any context with no P: sysmon). */
struct g *gmp_futexwake_list(const void *addr, int n);

/* The same with a bit set (FUTEX_WAIT_BITSET/WAKE_BITSET): a wake-up
 * reaches only waiters whose bits intersect its own. */
int gmp_futexwait_bits(const uint32_t *addr, uint32_t val, int64_t deadline, enum waitreason why, uint32_t bits);
int gmp_futexwake_bits(const void *addr, int n, uint32_t bits);
/* Wakes nwake waiters on addr and moves up to nmove more to addr2; with
 * cmpval, only if *addr still equals it (else -EAGAIN).  Returns the
 * number woken plus moved. */
int gmp_futexrequeue(const uint32_t *addr, int nwake, const uint32_t *addr2, int nmove, const uint32_t *cmpval);
/* gmp_futexwait's result when a waker handed it ownership directly. */
#define GMP_WAKE_HANDOFF (-1)
/* gmp_notify_wait's result for a waiter moved onto its mutex's queue. */
#define GMP_WAKE_REQUEUED (-2)

/* Hands *w to the oldest waiter: under the bucket lock, stores more (if
 * other waiters remain), last (if it was the only one) or none (if nobody
 * waits), and wakes that waiter with GMP_WAKE_HANDOFF. */
void gmp_futex_handoff(uint32_t *w, uint32_t more, uint32_t last, uint32_t none);

/* Readies Gs linked through schedlink that a waker took off a queue, on
 * the waker's P (none for a waker that is no G). */
void gmp_semq_ready(struct g *list);

/* Removes the oldest waiter on addr without readying it (any context). */
struct g *gmp_semq_dequeue(const void *addr);
/* Removes every waiter on addr without readying them (any context) and
 * returns them pushed onto list through schedlink. */
struct g *gmp_semq_collect(const void *addr, struct g *list);
/* Number of Gs parked on addr (for EBUSY checks and tests). */
int gmp_semq_count(const void *addr);

/* Ticket-based notification lists (Go's notifyList, behind sync.Cond):
 * a waiter takes a ticket with gmp_notify_add before releasing its mutex,
 * so a signal sent in between is not lost. */
uint32_t gmp_notify_add(uint32_t *wait);
/* condlock: the word of the (shim) mutex the waiter will relock, or NULL.
 * Returns 0 (notified, or a spurious wake-up), ETIMEDOUT, or, when the
 * notification moved the waiter onto condlock's queue, GMP_WAKE_REQUEUED
 * (woken by an unlock: relock with gmp_mutex_lock_requeued) or
 * GMP_WAKE_HANDOFF (the unlock handed the mutex over: it is locked). */
int gmp_notify_wait(const void *addr, uint32_t *notify, uint32_t ticket, int64_t deadline, uint32_t *condlock);
void gmp_notify_one(const void *addr, uint32_t *wait, uint32_t *notify);
void gmp_notify_all(const void *addr, uint32_t *wait, uint32_t *notify);

/* Parks the running G until the deadline (a sleep).  Returns 0, or
 * EINTR if gmp_semq_interrupt cut it short. */
int gmp_sleep_until(int64_t deadline);

/* The hook for signal delivery to a parked G: if gp is parked on a wait
 * queue (a sleep, a futex, a mutex, a condvar, ...), takes it off so that
 * its park returns code (EINTR) instead of 0 or ETIMEDOUT, and returns
 * true; the caller then readies gp (goready, gmp_ready_list).  A sleep
 * returns EINTR and its caller reports the time left from its deadline;
 * the other waits loop and park again, as NPTL's do after a handler. */
bool gmp_semq_interrupt(struct g *gp, int code);
/* The whole hook: interrupts gp's park with EINTR and readies it, on mp's
 * P (mp NULL, e.g. from sysmon: on the global queue).  What each wait
 * then does: sleeps return EINTR with the time left; raw FUTEX_WAIT
 * returns EINTR; condvar waits report a spurious wake-up (POSIX forbids
 * EINTR there); mutex, rwlock, semaphore, join and I/O waits park again. */
bool gmp_wake_interrupted(struct g *gp, struct m *mp);

/* Used by the timer code: times out gp if it is still parked where its
 * timer says.  Returns 1 if it did. */
int gmp_semq_timeout(struct g *gp, struct gmp_timer *t);

#endif
