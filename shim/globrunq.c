/* The global run queue (proc.go: globrunqput, globrunqget).  Protected by
 * sched.lock; Ps take from it in batches to keep the lock cold. */
#include "globrunq.h"
#include "runq.h"
#include "runtime.h"

void globrunqput(struct g *gp)
{
	gp->schedlink = NULL;
	if (sched.runqtail)
		sched.runqtail->schedlink = gp;
	else
		sched.runqhead = gp;
	sched.runqtail = gp;
	sched.runqsize++;
}

void globrunqputbatch(struct g *head, struct g *tail, int n)
{
	tail->schedlink = NULL;
	if (sched.runqtail)
		sched.runqtail->schedlink = head;
	else
		sched.runqhead = head;
	sched.runqtail = tail;
	sched.runqsize += n;
}

static struct g *globrunqpop(void)
{
	struct g *gp = sched.runqhead;
	sched.runqhead = gp->schedlink;
	if (sched.runqhead == NULL)
		sched.runqtail = NULL;
	gp->schedlink = NULL;
	return gp;
}

/* Takes a fair share (size / gomaxprocs + 1) of the global queue, at most
 * max when max > 0 and at most half a local queue; returns one G and puts
 * the rest on pp's local queue. */
struct g *globrunqget(struct p *pp, int max)
{
	if (sched.runqsize == 0)
		return NULL;
	pp->ctr.globtakes++;
	int n = sched.runqsize / sched.gomaxprocs + 1;
	if (n > sched.runqsize)
		n = sched.runqsize;
	if (max > 0 && n > max)
		n = max;
	if (n > RUNQ_SIZE / 2)
		n = RUNQ_SIZE / 2;
	sched.runqsize -= n;
	struct g *gp = globrunqpop();
	while (--n > 0)
		runqput(pp, globrunqpop(), false);
	return gp;
}

/* Takes gp off the global queue if it is there (a walk: only for a G whose
 * priority changed while queued, rtprio.c). */
bool globrunqremove(struct g *gp)
{
	struct g *prev = NULL;
	for (struct g *q = sched.runqhead; q; prev = q, q = q->schedlink) {
		if (q != gp)
			continue;
		if (prev)
			prev->schedlink = q->schedlink;
		else
			sched.runqhead = q->schedlink;
		if (sched.runqtail == q)
			sched.runqtail = prev;
		q->schedlink = NULL;
		sched.runqsize--;
		return true;
	}
	return false;
}
