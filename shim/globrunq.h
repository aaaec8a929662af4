/* The global run queue (globrunq.c): sched.lock must be held. */
#ifndef GMP_GLOBRUNQ_H
#define GMP_GLOBRUNQ_H

#include <stdbool.h>

#include "runtime.h"

/* All of them: sched.lock held. */
void globrunqput(struct g *gp);
void globrunqputbatch(struct g *head, struct g *tail, int n);
/* Takes up to max (0: a fair share) for pp, pp's owner; all but the one
 * returned go into pp's queue. */
struct g *globrunqget(struct p *pp, int max);
/* Takes gp off the queue if it is on it (a walk). */
bool globrunqremove(struct g *gp);

#endif
