/* Free G lists (proc.go: gfput, gfget).  A finished G keeps its memory,
 * TCB and TLS: mapping fresh pages costs ~15 us a page here, reusing them
 * costs a TLS re-initialisation.
 *
 * Each P keeps up to GFREE_LOCAL_MAX Gs of any shape; beyond that they go
 * to global lists kept per shape (stack and guard size, or a user stack),
 * so that taking one is O(1) however many of other shapes are free: one
 * list for all made a program with 100,000 free default threads walk all
 * of them for every thread it created with another stack size.  Shapes
 * past GFREE_CLASSES share one list, searched. */
#include <stddef.h>

#include "gfree.h"
#include "lock.h"
#include "runtime.h"

#define GFREE_LOCAL_MAX 64
#define GFREE_CLASSES 8

struct gfclass {
	size_t stack_size, guard_size; /* the shape; stack_size 0: user stacks */
	struct g *head;
	int n;
};

/* Under sched.gflock.  classes[GFREE_CLASSES] takes every other shape. */
static struct gfclass classes[GFREE_CLASSES + 1];
static int ngfree; /* atomic: read without the lock for a quick "none" */

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

/* Puts list (linked through schedlink) on the global lists. */
static void put_global(struct g *list)
{
	lock(&sched.gflock);
	while (list) {
		struct g *gp = list;
		list = gp->schedlink;
		struct gfclass *c = class_of(shape_stack(gp), shape_guard(gp), false);
		gp->schedlink = c->head;
		c->head = gp;
		c->n++;
		__atomic_add_fetch(&ngfree, 1, __ATOMIC_RELAXED);
	}
	unlock(&sched.gflock);
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
		c->n--;
		gp->schedlink = NULL;
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
	return gp;
}
