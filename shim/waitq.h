/* The queues behind the semaphore table, as a plain data structure:
 * per bucket, a hash of queue heads (the oldest waiter on each address),
 * each head chaining the later waiters on its address in FIFO order.
 * Every operation is O(1) expected at any number of waiters and of
 * addresses.  Callers hold the bucket lock; nothing here parks or wakes. */
#ifndef GMP_WAITQ_H
#define GMP_WAITQ_H

#include <stdbool.h>

#include "runtime.h"

#define SEMTAB_SIZE 251 /* prime, as Go's semTabSize */

/* A futex_waitv waiter's entry on one of its words (futex_waitv.c): the
 * waiter is one G on several queues, so each word gets a node that
 * points back at the wait's state. */
struct waitv_node {
	const void *addr;
	struct waitv_node *next, **pprev; /* in the bucket's list; pprev NULL: not queued */
	struct waitv_state *st;
	uint32_t index;
};

#define WAITQ_INLINE_SHIFT 2 /* a bucket's first chains are inline */

struct semroot {
	struct mutex lock;
	uint32_t shift;       /* chains has 1 << shift entries; inl while chains is NULL */
	uint32_t nheads;      /* addresses with waiters */
	struct g **chains;    /* heads hashed by address, linked through waitnext */
	struct g *inl[1 << WAITQ_INLINE_SHIFT];
	struct waitv_node *watchers;
} __attribute__((aligned(64)));

struct semroot *semroot(const void *addr);
/* The i-th bucket, 0 <= i < SEMTAB_SIZE (a walk over every queue). */
struct semroot *waitq_bucket(int i);
/* The oldest waiter on addr, or NULL. */
struct g *waitq_head(struct semroot *root, const void *addr);
void waitq_enqueue(struct semroot *root, const void *addr, struct g *gp);
/* Unlinks gp, which must be queued on its waitaddr in root. */
void waitq_remove(struct semroot *root, struct g *gp);
/* The first queue head in root for which match(head, arg) holds, or NULL
 * (a walk over every address of the bucket). */
struct g *waitq_find_head(struct semroot *root, bool (*match)(struct g *head, void *arg), void *arg);
struct g *waitq_dequeue(struct semroot *root, const void *addr);
/* Removes every waiter on addr at once: the oldest, the others linked
 * through schedlink in FIFO order (NULL if none). */
struct g *waitq_dequeue_all(struct semroot *root, const void *addr);
/* Both buckets' locks, in address order (once if they are the same). */
void waitq_lock2(struct semroot *a, struct semroot *b);
void waitq_unlock2(struct semroot *a, struct semroot *b);
/* Queues node on addr in root / unlinks it (bucket lock held). */
void waitq_watch(struct semroot *root, struct waitv_node *node, const void *addr);
void waitq_unwatch(struct waitv_node *node);

void waitq_fork(enum gmp_fork_phase phase);

#endif
