/* Heads are hashed within their bucket into chains that grow with the
 * number of addresses waited on: 100,000 sleeping threads each wait on an
 * address of their own, and a walk over a bucket's heads (what a list of
 * them cost) made every sleep and every time-out O(n).  Within a queue the
 * waiters are doubly linked, so a time-out or an interruption in the
 * middle of 100,000 waiters on one condvar is O(1) too. */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "fork.h"
#include "lock.h"
#include "runtime.h"
#include "sys.h"
#include "waitq.h"

static struct semroot semtable[SEMTAB_SIZE];

struct semroot *semroot(const void *addr)
{
	return &semtable[((uintptr_t)addr >> 3) % SEMTAB_SIZE];
}

struct semroot *waitq_bucket(int i)
{
	return &semtable[i];
}

static unsigned nshift(const struct semroot *root)
{
	return root->chains ? root->shift : WAITQ_INLINE_SHIFT;
}

/* The bucket index above takes the address modulo a prime; the chains
 * take the top bits of a multiplicative hash, which that leaves uniform. */
static struct g **chain(struct semroot *root, const void *addr)
{
	unsigned sh = nshift(root);
	size_t h = (size_t)(((uintptr_t)addr * 0x9e3779b97f4a7c15ull) >> (64 - sh));
	return root->chains ? &root->chains[h] : &root->inl[h];
}

static struct g *findhead(struct semroot *root, const void *addr)
{
	struct g *gp = *chain(root, addr);
	while (gp && gp->waitaddr != addr)
		gp = gp->waitnext;
	return gp;
}

struct g *waitq_head(struct semroot *root, const void *addr)
{
	return findhead(root, addr);
}

static void chain_insert(struct g **c, struct g *head)
{
	head->waitnext = *c;
	if (*c)
		(*c)->waitpprev = &head->waitnext;
	head->waitpprev = c;
	*c = head;
}

/* Doubles the chains once a bucket has more addresses than chains: a
 * walk reads each G it passes, a cache miss each (with 10,000 Gs parked
 * on sockets and two per chain, the walks took 6% of an echo server's
 * time).  The bucket lock is held across the mmap: this happens
 * O(log n) times per bucket over the process's life, and when the
 * kernel says no the chains just get longer. */
static void grow(struct semroot *root)
{
	unsigned osh = nshift(root), sh = osh + 1;
	long r = gmp_syscall6(SYS_mmap, 0, (long)(sizeof(struct g *) << sh), PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r < 0 && r > -4096)
		return;
	struct g **old = root->chains ? root->chains : root->inl;
	root->chains = (struct g **)r;
	root->shift = sh;
	for (size_t i = 0; i < ((size_t)1 << osh); i++) {
		struct g *gp = old[i];
		while (gp) {
			struct g *next = gp->waitnext;
			chain_insert(chain(root, gp->waitaddr), gp);
			gp = next;
		}
		old[i] = NULL;
	}
	if (old != root->inl)
		gmp_syscall(SYS_munmap, old, sizeof(struct g *) << osh, 0);
}

/* nw becomes the head of old's queue: old's place in its hash chain and
 * the queue's tail pass to nw.  old's own chain fields are left as they
 * were. */
static void take_head_place(struct g *old, struct g *nw)
{
	nw->waitprev = NULL;
	nw->waittail = old->waittail;
	nw->waitnext = old->waitnext;
	nw->waitpprev = old->waitpprev;
	if (nw->waitnext)
		nw->waitnext->waitpprev = &nw->waitnext;
	*nw->waitpprev = nw;
}

/* A realtime waiter goes before the first waiter of a lower priority
 * (rtprio.c; FIFO among equals), as the kernel's futex queues order them:
 * every wake-up then takes the highest first.  SCHED_OTHER waiters
 * (rtprio 0) never come here: they keep their FIFO order behind the
 * realtime ones.  gp is not the tail, so some waiter is lower. */
static void insert_by_prio(struct g *head, struct g *gp)
{
	struct g *w = head;
	while (w->rtprio >= gp->rtprio)
		w = w->waitlink;
	gp->waitlink = w;
	if (w != head) {
		gp->waitprev = w->waitprev;
		w->waitprev->waitlink = gp;
		w->waitprev = gp;
		return;
	}
	take_head_place(head, gp);
	head->waitprev = gp;
	head->waitnext = NULL;
	head->waitpprev = NULL;
	head->waittail = NULL;
}

void waitq_enqueue(struct semroot *root, const void *addr, struct g *gp)
{
	struct g *head = findhead(root, addr);
	gp->waitaddr = addr;
	gp->waitlink = NULL;
	if (head == NULL) {
		gp->waitprev = NULL;
		gp->waittail = gp;
		chain_insert(chain(root, addr), gp);
		if (++root->nheads > (1u << nshift(root)))
			grow(root);
	} else if (__builtin_expect(gp->rtprio > 0, 0) && head->waittail->rtprio < gp->rtprio) {
		insert_by_prio(head, gp);
	} else {
		gp->waitprev = head->waittail;
		head->waittail->waitlink = gp;
		head->waittail = gp;
	}
}

/* Takes head, and with it its address's queue, out of its hash chain. */
static void chain_remove(struct semroot *root, struct g *head)
{
	*head->waitpprev = head->waitnext;
	if (head->waitnext)
		head->waitnext->waitpprev = head->waitpprev;
	root->nheads--;
}

/* gp is on no queue any more. */
static void clear_links(struct g *gp)
{
	gp->waitaddr = NULL;
	gp->waitlink = gp->waitprev = gp->waitnext = gp->waittail = NULL;
	gp->waitpprev = NULL;
}

void waitq_remove(struct semroot *root, struct g *gp)
{
	struct g *next = gp->waitlink;
	if (gp->waitprev == NULL) {
		/* The head: the next waiter takes its place in the chain. */
		if (next)
			take_head_place(gp, next);
		else
			chain_remove(root, gp);
	} else {
		gp->waitprev->waitlink = next;
		if (next)
			next->waitprev = gp->waitprev;
		else
			findhead(root, gp->waitaddr)->waittail = gp->waitprev;
	}
	clear_links(gp);
}

struct g *waitq_dequeue(struct semroot *root, const void *addr)
{
	struct g *head = findhead(root, addr);
	if (head)
		waitq_remove(root, head);
	return head;
}

struct g *waitq_dequeue_all(struct semroot *root, const void *addr)
{
	struct g *head = findhead(root, addr);
	if (head == NULL)
		return NULL;
	chain_remove(root, head);
	for (struct g *gp = head; gp; gp = gp->schedlink) {
		gp->schedlink = gp->waitlink;
		clear_links(gp);
	}
	return head;
}

struct g *waitq_find_head(struct semroot *root, bool (*match)(struct g *head, void *arg), void *arg)
{
	if (root->nheads == 0)
		return NULL;
	size_t n = (size_t)1 << nshift(root);
	for (size_t i = 0; i < n; i++) {
		struct g *gp = root->chains ? root->chains[i] : root->inl[i];
		for (; gp; gp = gp->waitnext)
			if (match(gp, arg))
				return gp;
	}
	return NULL;
}

void waitq_watch(struct semroot *root, struct waitv_node *node, const void *addr)
{
	node->addr = addr;
	node->next = root->watchers;
	if (node->next)
		node->next->pprev = &node->next;
	node->pprev = &root->watchers;
	root->watchers = node;
}

void waitq_unwatch(struct waitv_node *node)
{
	*node->pprev = node->next;
	if (node->next)
		node->next->pprev = node->pprev;
	node->next = NULL;
	node->pprev = NULL;
}

void waitq_lock2(struct semroot *a, struct semroot *b)
{
	if (a == b) {
		lock(&a->lock);
	} else if (a < b) {
		lock(&a->lock);
		lock(&b->lock);
	} else {
		lock(&b->lock);
		lock(&a->lock);
	}
}

void waitq_unlock2(struct semroot *a, struct semroot *b)
{
	unlock(&a->lock);
	if (a != b)
		unlock(&b->lock);
}

/* Not locked across the fork: the child drops the whole table without
 * reading it (its waiters were the other threads, gone there), so a
 * bucket another M was changing at the fork does not matter.  Locking
 * them cost the parent a copy-on-write fault on each of the table's 9
 * pages at every fork (unlocking after it), about half of the faults the
 * shim added to a fork.  Their chains stay mapped in the child, unused. */
void waitq_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_CHILD)
		memset(semtable, 0, sizeof semtable);
}
