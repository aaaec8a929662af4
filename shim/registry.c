/* The set of live threads, keyed by pthread_t (the TCB address), so that a
 * stale or invalid pthread_t gives ESRCH instead of a crash. */
#include "fork.h"
#include "lock.h"
#include "registry.h"
#include "runtime.h"

#define REG_BUCKETS 4096

static struct mutex reglock;
static struct g *buckets[REG_BUCKETS];

static struct g **bucket(const void *tcb)
{
	return &buckets[((uintptr_t)tcb >> 6) % REG_BUCKETS];
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
	struct g *gp = *bucket(tcb);
	while (gp && gp->tcb != tcb)
		gp = gp->regnext;
	return gp;
}

void gmp_registry_add(struct g *gp)
{
	lock(&reglock);
	struct g **b = bucket(gp->tcb);
	gp->regnext = *b;
	*b = gp;
	unlock(&reglock);
}

void gmp_registry_del(struct g *gp)
{
	lock(&reglock);
	for (struct g **link = bucket(gp->tcb); *link; link = &(*link)->regnext) {
		if (*link == gp) {
			*link = gp->regnext;
			break;
		}
	}
	gp->regnext = NULL;
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

void gmp_registry_foreach(void (*fn)(struct g *, void *), void *arg)
{
	lock(&reglock);
	for (int i = 0; i < REG_BUCKETS; i++)
		for (struct g *gp = buckets[i]; gp; gp = gp->regnext)
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
		reglock = (struct mutex){ 0 };
		for (int i = 0; i < REG_BUCKETS; i++)
			buckets[i] = NULL;
	}
}

/* Without the lock, for a dump from a signal handler: Gs are never
 * unmapped once registered, so every pointer followed is readable; a G
 * moved concurrently may be missed or seen twice, which a dump tolerates.
 * The walk is bounded in case a chain changes under it. */
void gmp_registry_foreach_unlocked(void (*fn)(struct g *, void *), void *arg)
{
	long budget = 1L << 22;
	for (int i = 0; i < REG_BUCKETS; i++)
		for (struct g *gp = __atomic_load_n(&buckets[i], __ATOMIC_ACQUIRE); gp && budget-- > 0;
		     gp = __atomic_load_n(&gp->regnext, __ATOMIC_ACQUIRE))
			fn(gp, arg);
}
