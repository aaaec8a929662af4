/* Free Gs (gfree.c): per-P lists, spilled to and refilled from a global one. */
#ifndef GMP_GFREE_H
#define GMP_GFREE_H

#include <stddef.h>

#include "runtime.h"

void gfput(struct p *pp, struct g *gp);
struct g *gfget(struct p *pp, size_t stack_size, size_t guard_size);

#endif
