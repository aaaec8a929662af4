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
 * ns; -1 for none) passes. */
int gmp_futexwait(const uint32_t *addr, uint32_t val, int64_t deadline, enum waitreason why);
/* Wakes up to n Gs parked on addr (G context).  Returns how many. */
int gmp_futexwake(const void *addr, int n);
/* Removes the oldest waiter on addr without readying it (any context). */
struct g *gmp_semq_dequeue(const void *addr);
/* Number of Gs parked on addr (for EBUSY checks and tests). */
int gmp_semq_count(const void *addr);

/* Ticket-based notification lists (Go's notifyList, behind sync.Cond):
 * a waiter takes a ticket with gmp_notify_add before releasing its mutex,
 * so a signal sent in between is not lost. */
uint32_t gmp_notify_add(uint32_t *wait);
int gmp_notify_wait(const void *addr, uint32_t *notify, uint32_t ticket, int64_t deadline);
void gmp_notify_one(const void *addr, uint32_t *wait, uint32_t *notify);
void gmp_notify_all(const void *addr, uint32_t *wait, uint32_t *notify);

/* Parks the running G until the deadline (a sleep). */
void gmp_sleep_until(int64_t deadline);

/* Used by the timer code: times out gp if it is still parked on addr. */
int gmp_semq_timeout(struct g *gp, const void *addr);

#endif
