/* The global run queue (globrunq.c): sched.lock must be held. */
#ifndef GMP_GLOBRUNQ_H
#define GMP_GLOBRUNQ_H

#include "runtime.h"

void globrunqput(struct g *gp);
void globrunqputbatch(struct g *head, struct g *tail, int n);
struct g *globrunqget(struct p *pp, int max);

#endif
