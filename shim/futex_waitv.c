/* futex_waitv(2): one wait on up to 128 words, ended by a wake-up on any
 * of them; returns the index of the word woken.
 *
 * The waiting G parks on a word of its own (the wait's state, -1 while
 * it waits) and leaves a node on each word's bucket (waitq.h).  A waker
 * that finds a node takes it off like a waiter, counts it as woken, as
 * the kernel counts each of a waitv task's queue entries, and claims the
 * wait for that index with a CAS on the state; the first claim wins and
 * wakes the state word once the bucket lock is dropped.  A timeout or a
 * signal closes the state (-2) unless a claim came first.  The G then
 * unlinks its remaining nodes and, if claimed, waits until the claimer
 * has finished with the state before its frame goes. */
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "futex.h"
#include "lock.h"
#include "mapkind.h"
#include "proc.h"
#include "sema.h"
#include "sys.h"
#include "syscall.h"
#include "waitq.h"

#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#define FUTEX2_PRIVATE FUTEX_PRIVATE_FLAG
#endif
#define WAITV_MAX 128

/* The kernel's struct futex_waitv. */
struct kwaitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

#define OPEN UINT32_MAX          /* waiting */
#define CLOSED (UINT32_MAX - 1)  /* timed out or interrupted: no claim wins */

struct waitv_state {
	uint32_t state;              /* OPEN, CLOSED, or the index claimed */
	uint32_t done;               /* the claimer no longer touches it */
	struct waitv_state *next;    /* on a waker's claimed list */
};

int gmp_waitv_take(struct semroot *root, const void *addr, int n, struct waitv_state **claimed)
{
	int taken = 0;
	struct waitv_node *node = root->watchers;
	while (node && taken < n) {
		struct waitv_node *next = node->next;
		if (node->addr == addr) {
			waitq_unwatch(node);
			uint32_t open = OPEN;
			struct waitv_state *st = node->st;
			if (__atomic_compare_exchange_n(&st->state, &open, node->index, 0, __ATOMIC_ACQ_REL,
							__ATOMIC_RELAXED)) {
				st->next = *claimed;
				*claimed = st;
			}
			taken++;
		}
		node = next;
	}
	return taken;
}

int gmp_waitv_move(struct semroot *r1, const void *addr, struct semroot *r2, const void *addr2, int n)
{
	int moved = 0;
	struct waitv_node *node = r1->watchers;
	while (node && moved < n) {
		struct waitv_node *next = node->next;
		if (node->addr == addr) {
			waitq_unwatch(node);
			waitq_watch(r2, node, addr2);
			moved++;
		}
		node = next;
	}
	return moved;
}

void gmp_waitv_notify(struct waitv_state *claimed)
{
	while (claimed) {
		struct waitv_state *st = claimed;
		claimed = st->next;
		gmp_futexwake(&st->state, 1);
		__atomic_store_n(&st->done, 1, __ATOMIC_RELEASE);
	}
}

/* Unlinks a node wherever a requeue may have moved it meanwhile. */
static void unwatch(struct waitv_node *node)
{
	for (;;) {
		const void *addr = __atomic_load_n(&node->addr, __ATOMIC_ACQUIRE);
		struct semroot *root = semroot(addr);
		lock(&root->lock);
		if (node->addr == addr) {
			if (node->pprev)
				waitq_unwatch(node);
			unlock(&root->lock);
			return;
		}
		unlock(&root->lock);
	}
}

static long finish(struct waitv_node *nodes, unsigned int queued, struct waitv_state *st, long ret)
{
	for (unsigned int i = 0; i < queued; i++)
		unwatch(&nodes[i]);
	uint32_t open = OPEN;
	if (!__atomic_compare_exchange_n(&st->state, &open, CLOSED, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) &&
	    open != CLOSED) {
		/* Claimed: the result is the index, once the claimer is done. */
		while (!__atomic_load_n(&st->done, __ATOMIC_ACQUIRE)) {
			if (getg())
				gosched();
			else
				gmp_syscall(SYS_sched_yield, 0, 0, 0);
		}
		return open;
	}
	return ret;
}

static long wait_here(struct kwaitv *w, unsigned int nr, int64_t deadline)
{
	struct waitv_node nodes[WAITV_MAX];
	struct waitv_state st = { OPEN, 0, NULL };
	for (unsigned int i = 0; i < nr; i++) {
		const uint32_t *addr = (const uint32_t *)(uintptr_t)w[i].uaddr;
		struct semroot *root = semroot(addr);
		nodes[i].st = &st;
		nodes[i].index = i;
		nodes[i].pprev = NULL;
		lock(&root->lock);
		if (__atomic_load_n(addr, __ATOMIC_ACQUIRE) != (uint32_t)w[i].val) {
			unlock(&root->lock);
			return finish(nodes, i, &st, -EAGAIN);
		}
		waitq_watch(root, &nodes[i], addr);
		unlock(&root->lock);
	}
	long ret = 0;
	for (;;) {
		int r = gmp_futexwait_bits(&st.state, OPEN, deadline, WAIT_FUTEX, FUTEX_BITSET_MATCH_ANY);
		if (__atomic_load_n(&st.state, __ATOMIC_ACQUIRE) != OPEN)
			break;
		if (r == ETIMEDOUT || r == EINTR) {
			ret = -r;
			break;
		}
	}
	return finish(nodes, nr, &st, ret);
}

long gmp_sys_futex_waitv(void *waiters, unsigned int nr, unsigned int flags, const struct timespec *timeout,
			 clockid_t clk)
{
	struct kwaitv *w = waiters;
	if (flags != 0 || nr == 0 || nr > WAITV_MAX || w == NULL)
		return -EINVAL;
	int err = 0;
	int64_t deadline = -1;
	if (timeout) {
		if (clk != CLOCK_MONOTONIC && clk != CLOCK_REALTIME)
			return -EINVAL;
		deadline = gmp_futex_abs_deadline(timeout, clk == CLOCK_REALTIME, &err);
		if (err)
			return -err;
	}
	unsigned int shared = 0;
	for (unsigned int i = 0; i < nr; i++) {
		if ((w[i].flags & ~(uint32_t)FUTEX2_PRIVATE) != FUTEX2_SIZE_U32 || w[i].reserved != 0 ||
		    w[i].uaddr % 4 != 0 || (w[i].val >> 32) != 0)
			return -EINVAL;
		enum mapkind k = w[i].flags & FUTEX2_PRIVATE ? MAPKIND_PRIVATE
							    : gmp_mapkind((const void *)(uintptr_t)w[i].uaddr);
		if (k == MAPKIND_NONE)
			return -EFAULT;
		shared += k == MAPKIND_SHARED;
	}
	if (shared == nr)
		return gmp_blocking_syscall6(SYS_futex_waitv, (long)waiters, nr, flags, (long)timeout, clk, 0);
	if (shared != 0) {
		/* Some waiters would be queued here, some in the kernel. */
		gmp_unsupported("futex_waitv: words in MAP_SHARED memory mixed with others (EINVAL)");
		return -EINVAL;
	}
	return wait_here(w, nr, deadline);
}
