/* Per-P run queues (runq.c): lock-free rings of RUNQ_SIZE plus runnext.
 * Only the owner P's M puts and gets; thieves CAS runqhead. */
#ifndef GMP_RUNQ_H
#define GMP_RUNQ_H

#include <stdbool.h>

#include "runtime.h"

/* Any M: a racy look, exact only to pp's owner. */
bool runqempty(struct p *pp);
int runqsize(struct p *pp);
/* pp's owner only.  next: into runnext (the old one goes to the tail); a
 * full ring spills half of itself to the global queue (takes sched.lock). */
void runqput(struct p *pp, struct g *gp, bool next);
/* pp's owner only.  *inherit: the G came from runnext and keeps the time
 * slice. */
struct g *runqget(struct p *pp, bool *inherit);
/* pp's owner, stealing from p2 (any other P): half of p2's queue into pp's,
 * one of them returned; runnext too if stealrunnext. */
struct g *runqsteal(struct p *pp, struct p *p2, bool stealrunnext);

#endif
