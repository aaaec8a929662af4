/* Free G lists (proc.go: gfput, gfget).  A finished G keeps its mapping,
 * TCB and TLS: mapping fresh pages costs ~15 us a page here, reusing them
 * costs a TLS re-initialisation. */
#include "gfree.h"
#include "lock.h"
#include "runtime.h"

#define GFREE_LOCAL_MAX 64

/* pp NULL: a caller without a P (a foreign thread reaping a G it
 * joined) puts it on the global list. */
void gfput(struct p *pp, struct g *gp)
{
	if (pp == NULL) {
		lock(&sched.gflock);
		gp->schedlink = sched.gfree;
		sched.gfree = gp;
		sched.ngfree++;
		unlock(&sched.gflock);
		return;
	}
	gp->schedlink = pp->gfree;
	pp->gfree = gp;
	pp->gfreecnt++;
	if (pp->gfreecnt < GFREE_LOCAL_MAX)
		return;
	/* Move half to the global list so other Ps can use them. */
	lock(&sched.gflock);
	while (pp->gfreecnt > GFREE_LOCAL_MAX / 2) {
		struct g *x = pp->gfree;
		pp->gfree = x->schedlink;
		pp->gfreecnt--;
		x->schedlink = sched.gfree;
		sched.gfree = x;
		sched.ngfree++;
	}
	unlock(&sched.gflock);
}

static bool fits(struct g *gp, size_t stack_size, size_t guard_size, bool userstack)
{
	if (userstack)
		return (gp->flags & G_USERSTACK) != 0;
	return !(gp->flags & G_USERSTACK) && gp->stack_size == stack_size && gp->guard_size == guard_size;
}

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

struct g *gfget(struct p *pp, size_t stack_size, size_t guard_size)
{
	bool userstack = stack_size == 0;
	struct g *gp = take(&pp->gfree, &pp->gfreecnt, stack_size, guard_size, userstack);
	if (gp || __atomic_load_n(&sched.ngfree, __ATOMIC_RELAXED) == 0)
		return gp;
	lock(&sched.gflock);
	gp = take(&sched.gfree, &sched.ngfree, stack_size, guard_size, userstack);
	unlock(&sched.gflock);
	return gp;
}
