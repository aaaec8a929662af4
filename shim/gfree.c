/* Free G lists (proc.go: gfput, gfget).  A finished G keeps its memory,
 * TCB and TLS: mapping fresh pages costs ~15 us a page here, reusing them
 * costs a TLS re-initialisation.
 *
 * Each P keeps up to GFREE_LOCAL_MAX Gs of any shape; beyond that they go
 * to global lists kept per shape (stack and guard size, or a user stack),
 * so that taking one is O(1) however many of other shapes are free: one
 * list for all made a program with 100,000 free default threads walk all
 * of them for every thread it created with another stack size.  Shapes
 * past GFREE_CLASSES share one list, searched.
 *
 * Stack pages are returned as Go's scavenger returns memory, in the
 * background: GFREE_WARM_MAX Gs on the global lists keep theirs, for a
 * quick reuse; sysmon gives back the stack pages of the others
 * (MADV_DONTNEED, gfree_scavenge) and queues them behind the warm ones, so
 * a burst of 100,000 threads that ended does not hold the pages they
 * touched.  Not on the exit path: a madvise per G there took a join from
 * 1-2 us to 4-13 us at 100,000 threads, most of it for stacks whose only
 * touched page is the one they share with the TLS, which stays. */
#include <stddef.h>

#include "gfree.h"
#include "lock.h"
#include "runtime.h"
#include "stack.h"

#define GFREE_LOCAL_MAX 64
#define GFREE_WARM_MAX 256
#define GFREE_CLASSES 8

struct gfclass {
	size_t stack_size, guard_size; /* the shape; stack_size 0: user stacks */
	struct g *head, *tail;         /* warm Gs first, cold ones after */
	int n;
};

/* Under sched.gflock.  classes[GFREE_CLASSES] takes every other shape. */
static struct gfclass classes[GFREE_CLASSES + 1];
static int ngfree; /* atomic: read without the lock for a quick "none" */
static int nwarm;  /* atomic: free Gs on the lists that kept their stack pages */

static bool fits(struct g *gp, size_t stack_size, size_t guard_size, bool userstack)
{
	if (userstack)
		return (gp->flags & G_USERSTACK) != 0;
	return !(gp->flags & G_USERSTACK) && gp->stack_size == stack_size && gp->guard_size == guard_size;
}

static size_t shape_stack(struct g *gp)
{
	return (gp->flags & G_USERSTACK) ? 0 : gp->stack_size;
}

static size_t shape_guard(struct g *gp)
{
	return (gp->flags & G_USERSTACK) ? 0 : gp->guard_size;
}

/* The class of this shape, claiming an empty one if none is; the shared
 * one if every class holds another shape.  find_only: NULL rather than
 * claim. */
static struct gfclass *class_of(size_t stack_size, size_t guard_size, bool find_only)
{
	struct gfclass *empty = NULL;
	for (int i = 0; i < GFREE_CLASSES; i++) {
		struct gfclass *c = &classes[i];
		if (c->n > 0 && c->stack_size == stack_size && c->guard_size == guard_size)
			return c;
		if (c->n == 0 && empty == NULL)
			empty = c;
	}
	if (find_only)
		return NULL;
	if (empty) {
		empty->stack_size = stack_size;
		empty->guard_size = guard_size;
		return empty;
	}
	return &classes[GFREE_CLASSES];
}

static void link_cold(struct gfclass *c, struct g *gp)
{
	gp->schedlink = NULL;
	if (c->tail)
		c->tail->schedlink = gp;
	else
		c->head = gp;
	c->tail = gp;
}

/* Puts list (linked through schedlink) on the global lists, warm Gs
 * first in their class.  Under sched.gflock. */
static void put_global_locked(struct g *list)
{
	while (list) {
		struct g *gp = list;
		list = gp->schedlink;
		struct gfclass *c = class_of(shape_stack(gp), shape_guard(gp), false);
		if (c == &classes[GFREE_CLASSES]) {
			/* Searched, never scavenged: only programs with more
			 * than GFREE_CLASSES stack shapes free at once land
			 * here, and they keep the pages. */
			gp->schedlink = c->head;
			c->head = gp;
		} else if (gp->flags & G_COLD) {
			link_cold(c, gp);
		} else {
			gp->schedlink = c->head;
			c->head = gp;
			if (c->tail == NULL)
				c->tail = gp;
			__atomic_add_fetch(&nwarm, 1, __ATOMIC_RELAXED);
		}
		c->n++;
		__atomic_add_fetch(&ngfree, 1, __ATOMIC_RELAXED);
	}
}

static void put_global(struct g *list)
{
	lock(&sched.gflock);
	put_global_locked(list);
	unlock(&sched.gflock);
}

/* sysmon (gfree.h). */
int gfree_scavenge(int max)
{
	int done = 0;
	while (done < max && __atomic_load_n(&nwarm, __ATOMIC_RELAXED) > GFREE_WARM_MAX) {
		/* Off the lists while their pages go: a gfget meanwhile finds
		 * the GFREE_WARM_MAX that stay, or maps a new G. */
		struct g *batch = NULL;
		int n = 0, want = max - done;
		lock(&sched.gflock);
		for (int i = 0; i < GFREE_CLASSES && n < want; i++) {
			struct gfclass *c = &classes[i];
			while (n < want && c->head && !(c->head->flags & G_COLD) &&
			       __atomic_load_n(&nwarm, __ATOMIC_RELAXED) > GFREE_WARM_MAX) {
				struct g *gp = c->head;
				c->head = gp->schedlink;
				if (c->head == NULL)
					c->tail = NULL;
				c->n--;
				__atomic_sub_fetch(&ngfree, 1, __ATOMIC_RELAXED);
				__atomic_sub_fetch(&nwarm, 1, __ATOMIC_RELAXED);
				gp->schedlink = batch;
				batch = gp;
				n++;
			}
		}
		unlock(&sched.gflock);
		if (n == 0)
			break; /* the warm ones past the bound were taken meanwhile */
		gmp_stack_release_list(batch);
		for (struct g *gp = batch; gp; gp = gp->schedlink)
			gp->flags |= G_COLD;
		put_global(batch);
		done += n;
	}
	return done;
}

/* pp NULL: a caller without a P (a foreign thread reaping a G it
 * joined) puts it on the global lists. */
void gfput(struct p *pp, struct g *gp)
{
	if (pp == NULL) {
		gp->schedlink = NULL;
		put_global(gp);
		return;
	}
	gp->schedlink = pp->gfree;
	pp->gfree = gp;
	pp->gfreecnt++;
	if (pp->gfreecnt < GFREE_LOCAL_MAX)
		return;
	/* Move half to the global lists so other Ps can use them. */
	struct g *list = NULL;
	while (pp->gfreecnt > GFREE_LOCAL_MAX / 2) {
		struct g *x = pp->gfree;
		pp->gfree = x->schedlink;
		pp->gfreecnt--;
		x->schedlink = list;
		list = x;
	}
	put_global(list);
}

/* Unlinks the first G of *list that fits. */
static struct g *take(struct g **list, int *count, size_t stack_size, size_t guard_size, bool userstack)
{
	for (struct g **link = list; *link; link = &(*link)->schedlink) {
		struct g *gp = *link;
		if (fits(gp, stack_size, guard_size, userstack)) {
			*link = gp->schedlink;
			gp->schedlink = NULL;
			(*count)--;
			return gp;
		}
	}
	return NULL;
}

static struct g *take_global(size_t stack_size, size_t guard_size, bool userstack)
{
	struct gfclass *c = class_of(userstack ? 0 : stack_size, userstack ? 0 : guard_size, true);
	struct g *gp = NULL;
	if (c) {
		gp = c->head; /* every G of a class fits */
		c->head = gp->schedlink;
		if (c->head == NULL)
			c->tail = NULL;
		c->n--;
		gp->schedlink = NULL;
		if (!(gp->flags & G_COLD))
			__atomic_sub_fetch(&nwarm, 1, __ATOMIC_RELAXED);
	} else {
		struct gfclass *o = &classes[GFREE_CLASSES];
		gp = take(&o->head, &o->n, stack_size, guard_size, userstack);
	}
	if (gp)
		__atomic_sub_fetch(&ngfree, 1, __ATOMIC_RELAXED);
	return gp;
}

struct g *gfget(struct p *pp, size_t stack_size, size_t guard_size)
{
	bool userstack = stack_size == 0;
	struct g *gp = take(&pp->gfree, &pp->gfreecnt, stack_size, guard_size, userstack);
	if (gp || __atomic_load_n(&ngfree, __ATOMIC_RELAXED) == 0)
		return gp;
	lock(&sched.gflock);
	gp = take_global(stack_size, guard_size, userstack);
	unlock(&sched.gflock);
	if (gp)
		gp->flags &= ~G_COLD;
	return gp;
}
