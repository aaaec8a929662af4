/* Free Gs (gfree.c): per-P lists, spilled to and refilled from global ones
 * kept per stack shape. */
#ifndef GMP_GFREE_H
#define GMP_GFREE_H

#include <stddef.h>

#include "runtime.h"

/* gp is G_DEAD and reaped.  pp: the caller's P, or NULL for a caller that
 * holds none (then the global list, under sched.gflock). */
void gfput(struct p *pp, struct g *gp);
/* A free G with this stack and guard size, or NULL.  pp's owner. */
struct g *gfget(struct p *pp, size_t stack_size, size_t guard_size);
/* sysmon: gives the stack pages of up to max free Gs past the ones kept
 * warm back to the kernel; returns how many.  Takes sched.gflock alone
 * and makes system calls: not on g0, not under a runtime lock. */
int gfree_scavenge(int max);

#endif
