/* Per-P run queues (runq.c): lock-free rings of RUNQ_SIZE plus runnext.
 * Only the owner P's M puts and gets; thieves CAS runqhead. */
#ifndef GMP_RUNQ_H
#define GMP_RUNQ_H

#include <stdbool.h>

#include "runtime.h"

bool runqempty(struct p *pp);
void runqput(struct p *pp, struct g *gp, bool next);
struct g *runqget(struct p *pp, bool *inherit);
struct g *runqsteal(struct p *pp, struct p *p2, bool stealrunnext);
int runqsize(struct p *pp);

#endif
