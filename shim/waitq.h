/* The queues behind the semaphore table, as a plain data structure:
 * per bucket, one list of queue heads (the oldest waiter on each address),
 * each head chaining the later waiters on its address in FIFO order.
 * Callers hold the bucket lock; nothing here parks or wakes. */
#ifndef GMP_WAITQ_H
#define GMP_WAITQ_H

#include "runtime.h"

#define SEMTAB_SIZE 251 /* prime, as Go's semTabSize */

struct semroot {
	struct mutex lock;
	struct g *heads;
} __attribute__((aligned(64)));

struct semroot *semroot(const void *addr);
/* The oldest waiter on addr, or NULL. */
struct g *waitq_head(struct semroot *root, const void *addr);
void waitq_enqueue(struct semroot *root, const void *addr, struct g *gp);
/* Unlinks gp, which must be queued on its waitaddr in root. */
void waitq_remove(struct semroot *root, struct g *gp);
struct g *waitq_dequeue(struct semroot *root, const void *addr);

void waitq_fork(enum gmp_fork_phase phase);

#endif
