/* Per-P run queues (proc.go: runqput, runqget, runqgrab, runqsteal).
 * The owner P is the only writer of runqtail; anyone may advance runqhead
 * with a CAS, which is how thieves take half of a victim's queue. */
#include <sys/syscall.h>
#include <time.h>

#include "compat/debug.h"
#include "globrunq.h"
#include "lock.h"
#include "runq.h"
#include "runtime.h"
#include "sys.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define store_rel(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define cas_rel(p, o, n) __atomic_compare_exchange_n((p), &(o), (n), 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)

bool runqempty(struct p *pp)
{
	/* Read head, tail, runnext, then tail again: a G moving from runnext
	 * into the ring between the reads must not look like an empty P. */
	for (;;) {
		uint32_t head = load_acq(&pp->runqhead);
		uint32_t tail = load_acq(&pp->runqtail);
		struct g *next = load_acq(&pp->runnext);
		if (tail == load_acq(&pp->runqtail))
			return head == tail && next == NULL;
	}
}

int runqsize(struct p *pp)
{
	uint32_t head = load_acq(&pp->runqhead);
	uint32_t tail = load_acq(&pp->runqtail);
	return (int)(tail - head) + (load_acq(&pp->runnext) != NULL);
}

/* Moves half of the local queue plus gp to the global queue: the local
 * queue is full.  Fails if a thief moved head meanwhile (caller retries). */
static bool runqputslow(struct p *pp, struct g *gp, uint32_t head, uint32_t tail)
{
	struct g *batch[RUNQ_SIZE / 2 + 1];
	uint32_t n = (tail - head) / 2;
	if (n != RUNQ_SIZE / 2)
		gmp_throw("runqputslow: queue is not full");
	for (uint32_t i = 0; i < n; i++)
		batch[i] = pp->runq[(head + i) % RUNQ_SIZE];
	if (!cas_rel(&pp->runqhead, head, head + n))
		return false;
	batch[n] = gp;
	for (uint32_t i = 0; i < n; i++)
		batch[i]->schedlink = batch[i + 1];
	lock(&sched.lock);
	globrunqputbatch(batch[0], batch[n], (int)n + 1);
	unlock(&sched.lock);
	return true;
}

void runqput(struct p *pp, struct g *gp, bool next)
{
	if (next) {
		struct g *old = __atomic_exchange_n(&pp->runnext, gp, __ATOMIC_ACQ_REL);
		if (old == NULL)
			return;
		gp = old; /* kick the old runnext to the tail */
	}
	for (;;) {
		uint32_t head = load_acq(&pp->runqhead);
		uint32_t tail = pp->runqtail;
		if (tail - head < RUNQ_SIZE) {
			pp->runq[tail % RUNQ_SIZE] = gp;
			store_rel(&pp->runqtail, tail + 1);
			return;
		}
		if (runqputslow(pp, gp, head, tail))
			return;
	}
}

struct g *runqget(struct p *pp, bool *inherit)
{
	struct g *next = load_acq(&pp->runnext);
	/* Only the owner clears runnext to NULL here, and thieves only swap it
	 * to NULL, so a CAS failure means someone stole it. */
	if (next != NULL && __atomic_compare_exchange_n(&pp->runnext, &next, NULL, 0,
							__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		*inherit = true;
		return next;
	}
	*inherit = false;
	for (;;) {
		uint32_t head = load_acq(&pp->runqhead);
		uint32_t tail = pp->runqtail;
		if (tail == head)
			return NULL;
		struct g *gp = pp->runq[head % RUNQ_SIZE];
		if (cas_rel(&pp->runqhead, head, head + 1))
			return gp;
	}
}

static void usleep_raw(long us)
{
	struct timespec ts = { 0, us * 1000 };
	gmp_syscall(SYS_nanosleep, &ts, NULL, 0);
}

/* Copies half of pp's queue into batch starting at batchhead.  With
 * stealrunnext, an empty ring lets the thief take runnext, but only when the
 * victim looks idle: it has not scheduled anything for a few microseconds,
 * so the G it readied is not about to run there anyway. */
static uint32_t runqgrab(struct p *pp, struct g **batch, uint32_t batchhead, bool stealrunnext)
{
	for (;;) {
		uint32_t head = load_acq(&pp->runqhead);
		uint32_t tail = load_acq(&pp->runqtail);
		uint32_t n = tail - head;
		n = n - n / 2;
		if (n == 0) {
			if (!stealrunnext)
				return 0;
			struct g *next = load_acq(&pp->runnext);
			if (next == NULL)
				return 0;
			if (load_acq(&pp->status) == P_RUNNING) {
				uint32_t tick = load_acq(&pp->schedtick);
				usleep_raw(3);
				if (load_acq(&pp->schedtick) != tick)
					return 0;
			}
			if (!__atomic_compare_exchange_n(&pp->runnext, &next, NULL, 0,
							 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				continue;
			batch[batchhead % RUNQ_SIZE] = next;
			return 1;
		}
		if (n > RUNQ_SIZE / 2)
			continue; /* read an inconsistent head and tail */
		for (uint32_t i = 0; i < n; i++)
			batch[(batchhead + i) % RUNQ_SIZE] = pp->runq[(head + i) % RUNQ_SIZE];
		if (cas_rel(&pp->runqhead, head, head + n))
			return n;
	}
}

struct g *runqsteal(struct p *pp, struct p *p2, bool stealrunnext)
{
	uint32_t tail = pp->runqtail;
	uint32_t n = runqgrab(p2, pp->runq, tail, stealrunnext);
	if (n == 0)
		return NULL;
	n--;
	struct g *gp = pp->runq[(tail + n) % RUNQ_SIZE];
	if (n == 0)
		return gp;
	uint32_t head = load_acq(&pp->runqhead);
	if (tail - head + n >= RUNQ_SIZE)
		gmp_throw("runqsteal: runq overflow");
	store_rel(&pp->runqtail, tail + n);
	return gp;
}
