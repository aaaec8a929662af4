/* The set of live threads, keyed by pthread_t (the TCB address), so that a
 * stale or invalid pthread_t gives ESRCH instead of a crash, and by TID,
 * which gettid() gives a program and the calls that name a thread by it
 * take (tgkill, sched_setaffinity).
 *
 * A chained hash table that doubles when it holds as many Gs as it has
 * buckets, so every operation is O(1) amortised at any thread count.  The
 * key is hashed with a multiplicative (Fibonacci) hash: TCBs sit at the
 * top of equal-sized stacks, a fixed stride apart, and the low bits of the
 * address (what the table once took modulo 4096) repeat with that stride,
 * which put 2,000 threads into 64 buckets and made joins quadratic.
 *
 * Dumps walk the table from signal handlers without the lock, so no memory
 * the table ever pointed into goes away: Gs are never unmapped once
 * registered, and a table outgrown is kept mapped with its pages given
 * back (a walker still on it reads zeros: empty buckets). */
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "compat/debug.h"
#include "fork.h"
#include "lock.h"
#include "registry.h"
#include "runtime.h"
#include "sys.h"

#define REG_MIN_SHIFT 12

/* A table knows its own size, so that a walker without the lock never
 * pairs a table with another one's size.  b holds the chains by TCB
 * (regnext), then as many by TID (tidnext). */
struct regtab {
	size_t nb;      /* 1 << shift buckets of each kind */
	unsigned shift;
	struct g *b[];
};

static struct mutex reglock;
static struct regtab *table; /* NULL until the first G; read without the lock by the unlocked walk */
static size_t count;         /* registered Gs */

static size_t hash(uintptr_t key, unsigned sh)
{
	return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - sh));
}

static struct g **tcb_chain(struct regtab *t, const void *tcb)
{
	return &t->b[hash((uintptr_t)tcb, t->shift)];
}

static struct g **tid_chain(struct regtab *t, int tid)
{
	return &t->b[t->nb + hash((uint32_t)tid, t->shift)];
}

void gmp_registry_lock(void)
{
	lock(&reglock);
}

void gmp_registry_unlock(void)
{
	unlock(&reglock);
}

struct g *gmp_registry_find_locked(const void *tcb)
{
	if (table == NULL)
		return NULL;
	struct g *gp = *tcb_chain(table, tcb);
	while (gp && gp->tcb != tcb)
		gp = gp->regnext;
	return gp;
}

static struct g *find_tid_locked(int tid)
{
	if (table == NULL)
		return NULL;
	struct g *gp = *tid_chain(table, tid);
	while (gp && gp->tid != tid)
		gp = gp->tidnext;
	return gp;
}

static size_t tabsize(unsigned sh)
{
	return sizeof(struct regtab) + (2 * sizeof(struct g *) << sh);
}

static struct regtab *map_table(unsigned sh)
{
	long r = gmp_syscall6(SYS_mmap, 0, (long)tabsize(sh), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);
	if (r < 0 && r > -4096)
		return NULL;
	struct regtab *t = (struct regtab *)r;
	t->nb = (size_t)1 << sh;
	t->shift = sh;
	return t;
}

/* Puts gp at the head of its chains in t. */
static void link_locked(struct regtab *t, struct g *gp)
{
	struct g **b = tcb_chain(t, gp->tcb), **c = tid_chain(t, gp->tid);
	__atomic_store_n(&gp->regnext, *b, __ATOMIC_RELEASE);
	__atomic_store_n(b, gp, __ATOMIC_RELEASE);
	gp->tidnext = *c;
	*c = gp;
}

/* Moves every G to the table nt; under reglock.  nt was mapped before
 * the lock was taken: a runtime lock is not held across a system call. */
static void rehash_locked(struct regtab *nt)
{
	for (size_t i = 0; table && i < table->nb; i++) {
		struct g *gp = table->b[i];
		while (gp) {
			struct g *next = gp->regnext;
			link_locked(nt, gp);
			gp = next;
		}
	}
	__atomic_store_n(&table, nt, __ATOMIC_RELEASE);
}

/* Grows the table when it holds as many Gs as it has buckets.  An
 * unlocked walker may still be reading the old one, so it stays mapped;
 * only its pages go back.  When the kernel has no memory for a bigger
 * table, the chains just get longer. */
static void maybe_grow(void)
{
	lock(&reglock);
	struct regtab *old = table;
	bool full = old == NULL || count >= old->nb;
	unlock(&reglock);
	if (!full)
		return;
	unsigned sh = old ? old->shift + 1 : REG_MIN_SHIFT;
	struct regtab *nt = map_table(sh);
	if (nt == NULL)
		return;
	lock(&reglock);
	bool mine = table == old;
	if (mine)
		rehash_locked(nt);
	unlock(&reglock);
	if (!mine) /* somebody else grew it meanwhile */
		gmp_syscall(SYS_munmap, nt, tabsize(sh), 0);
	else if (old)
		gmp_syscall(SYS_madvise, old, tabsize(old->shift), MADV_DONTNEED);
}

void gmp_registry_add(struct g *gp)
{
	maybe_grow();
	lock(&reglock);
	if (table == NULL)
		gmp_throw("no memory for the thread registry");
	link_locked(table, gp);
	count++;
	unlock(&reglock);
}

void gmp_registry_del(struct g *gp)
{
	lock(&reglock);
	for (struct g **link = tcb_chain(table, gp->tcb); *link; link = &(*link)->regnext) {
		if (*link == gp) {
			__atomic_store_n(link, gp->regnext, __ATOMIC_RELEASE);
			count--;
			break;
		}
	}
	for (struct g **link = tid_chain(table, gp->tid); *link; link = &(*link)->tidnext) {
		if (*link == gp) {
			*link = gp->tidnext;
			break;
		}
	}
	gp->regnext = gp->tidnext = NULL;
	unlock(&reglock);
}

struct g *gmp_registry_get(const void *tcb)
{
	lock(&reglock);
	struct g *gp = gmp_registry_find_locked(tcb);
	unlock(&reglock);
	return gp;
}

/* A thread that has not exited: what calls naming a thread act on; an
 * exited one is ESRCH to them, as its TID is gone under NPTL. */
struct g *gmp_registry_live(const void *tcb)
{
	struct g *gp = gmp_registry_get(tcb);
	if (gp == NULL || __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD)
		return NULL;
	return gp;
}

struct g *gmp_registry_tid(int tid)
{
	lock(&reglock);
	struct g *gp = find_tid_locked(tid);
	unlock(&reglock);
	if (gp == NULL || __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD)
		return NULL;
	return gp;
}

void gmp_registry_foreach(void (*fn)(struct g *, void *), void *arg)
{
	lock(&reglock);
	for (size_t i = 0; table && i < table->nb; i++)
		for (struct g *gp = table->b[i]; gp; gp = gp->regnext)
			fn(gp, arg);
	unlock(&reglock);
}

struct tcbfn {
	void (*fn)(void *tcb, void *arg);
	void *arg;
};

static void call_tcb(struct g *gp, void *arg)
{
	struct tcbfn *t = arg;
	t->fn(gp->tcb, t->arg);
}

void gmp_registry_foreach_tcb(void (*fn)(void *tcb, void *arg), void *arg)
{
	struct tcbfn t = { fn, arg };
	gmp_registry_foreach(call_tcb, &t);
}

void registry_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&reglock);
	} else if (phase == FORK_PARENT) {
		unlock(&reglock);
	} else {
		/* The child's only thread is re-added by fork.c into a new
		 * table: clearing a big one would copy its pages. */
		if (table)
			gmp_syscall(SYS_munmap, table, tabsize(table->shift), 0);
		reglock = (struct mutex){ 0 };
		table = NULL;
		count = 0;
	}
}

/* Without the lock, for a dump from a signal handler: every pointer
 * followed is readable (see the top); a G moved concurrently, or a table
 * grown under the walk, may make it miss a G or see one twice, which a
 * dump tolerates.  The walk is bounded in case a chain changes under it. */
void gmp_registry_foreach_unlocked(void (*fn)(struct g *, void *), void *arg)
{
	long budget = 1L << 24;
	struct regtab *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	size_t n = t ? __atomic_load_n(&t->nb, __ATOMIC_RELAXED) : 0;
	for (size_t i = 0; i < n && budget > 0; i++)
		for (struct g *gp = __atomic_load_n(&t->b[i], __ATOMIC_ACQUIRE); gp && budget-- > 0;
		     gp = __atomic_load_n(&gp->regnext, __ATOMIC_ACQUIRE))
			fn(gp, arg);
}
