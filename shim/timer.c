/* Per-P timer heaps (see timer.h).  A heap is a 4-ary min-heap (Go's
 * shape: shallower than a binary heap, and the four children of a node
 * share a cache line) on one clock's ns.
 *
 * Lock order: a wait-queue bucket, then a P's timer lock, then sched.lock.
 * A park adds its timer while holding its bucket lock; a collector pops
 * due timers under the timer lock alone and only then takes the bucket
 * lock of each G (gmp_semq_timeout), so it never holds both.  A popped
 * timer is FIRING until the collector is done with it: the G, readied
 * meanwhile by a normal wake-up, waits in gmp_timer_del for that before
 * it reuses its timer in another park. */
#include <sys/mman.h>
#include <time.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/realsym.h"
#include "fork.h"
#include "lock.h"
#include "netpoll.h"
#include "proc.h"
#include "runq.h"
#include "runtime.h"
#include "sema.h"
#include "syscall.h"
#include "sysmon.h"
#include "timer.h"

static int32_t nrealtime; /* queued realtime timers, all Ps; atomic */
static int64_t skew;      /* unit tests: added to CLOCK_REALTIME */


int64_t gmp_realtime(void)
{
	struct timespec ts;
	gmp_clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec + __atomic_load_n(&skew, __ATOMIC_RELAXED);
}

void gmp_timers_set_skew(int64_t ns)
{
	__atomic_store_n(&skew, ns, __ATOMIC_RELAXED);
}

int64_t gmp_deadline_left(int64_t d)
{
	if (gmp_deadline_is_realtime(d))
		return (d & ~GMP_DEADLINE_REALTIME) - gmp_realtime();
	return d - gmp_nanotime();
}

int64_t gmp_deadline_kernel_realtime(int64_t d)
{
	return (d & ~GMP_DEADLINE_REALTIME) - __atomic_load_n(&skew, __ATOMIC_RELAXED);
}

struct timespec *gmp_deadline_timeout(int64_t d, struct timespec *ts)
{
	if (d < 0)
		return NULL;
	int64_t ns = gmp_deadline_left(d);
	if (ns < 0)
		ns = 0;
	*ts = (struct timespec){ ns / 1000000000LL, ns % 1000000000LL };
	return ts;
}

static int64_t key(const struct gmp_timer *t)
{
	return t->when & ~GMP_DEADLINE_REALTIME;
}

/* --- one heap --- */

static void siftup(struct timerheap *hp, int i)
{
	struct gmp_timer **h = hp->h, *t = h[i];
	while (i > 0) {
		int parent = (i - 1) / 4;
		if (key(h[parent]) <= key(t))
			break;
		h[i] = h[parent];
		h[i]->index = i;
		i = parent;
	}
	h[i] = t;
	t->index = i;
}

static void siftdown(struct timerheap *hp, int i)
{
	struct gmp_timer **h = hp->h, *t = h[i];
	for (;;) {
		int c = 4 * i + 1;
		if (c >= hp->n)
			break;
		int best = c;
		for (int k = c + 1; k < c + 4 && k < hp->n; k++)
			if (key(h[k]) < key(h[best]))
				best = k;
		if (key(h[best]) >= key(t))
			break;
		h[i] = h[best];
		h[i]->index = i;
		i = best;
	}
	h[i] = t;
	t->index = i;
}

static void publish(struct timerheap *hp)
{
	__atomic_store_n(&hp->when0, hp->n ? key(hp->h[0]) : -1, __ATOMIC_RELEASE);
}

static void heap_remove(struct timerheap *hp, int i)
{
	struct gmp_timer *t = hp->h[i];
	hp->n--;
	if (i != hp->n) {
		hp->h[i] = hp->h[hp->n];
		hp->h[i]->index = i;
		siftdown(hp, i);
		siftup(hp, hp->h[i]->index);
	}
	t->index = -1;
	publish(hp);
}

static void heap_grow(struct timerheap *hp)
{
	/* mmap, not malloc: timers are added with a bucket lock held, and
	 * malloc may itself wait on a lock of a thread parked behind it. */
	int ncap = hp->cap ? hp->cap * 2 : 256;
	size_t oldsz = sizeof(*hp->h) * (size_t)hp->cap, newsz = sizeof(*hp->h) * (size_t)ncap;
	void *nh = hp->cap ? mremap(hp->h, oldsz, newsz, MREMAP_MAYMOVE)
			   : mmap(NULL, newsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nh == MAP_FAILED)
		gmp_throw("cannot grow a timer heap");
	hp->h = nh;
	hp->cap = ncap;
}

static struct timerheap *heap_of(struct p *pp, const struct gmp_timer *t)
{
	return gmp_deadline_is_realtime(t->when) ? &pp->timers.real : &pp->timers.mono;
}

/* --- adding and deleting --- */

void gmp_timer_add(struct gmp_timer *t)
{
	struct m *mp = getg()->m;
	gmp_checkp(mp);
	/* A G that runs without a P (rescued from a blocking call) files
	 * its timer with the P it left: someone runs that P's timers. */
	struct p *pp = mp->p ? mp->p : mp->oldp ? mp->oldp : &allp[0];
	bool rt = gmp_deadline_is_realtime(t->when);
	lock(&pp->timers.lock);
	struct timerheap *hp = heap_of(pp, t);
	if (hp->n == hp->cap)
		heap_grow(hp);
	t->pp = pp;
	__atomic_store_n(&t->state, TIMER_QUEUED, __ATOMIC_RELAXED);
	hp->h[hp->n] = t;
	hp->n++;
	siftup(hp, hp->n - 1);
	bool first = hp->h[0] == t, alone = hp->n == 1;
	publish(hp);
	unlock(&pp->timers.lock);
	if (rt)
		__atomic_add_fetch(&nrealtime, 1, __ATOMIC_ACQ_REL);
	/* Idle Ms sleep until the earliest timer they saw; one that sleeps
	 * past this one must look again (proc.go: wakeNetPoller).  Not when
	 * the timer is this M's own P's and it has nothing else queued: its
	 * G is about to park, and the M, going idle, sleeps until it (a G
	 * run instead, stolen, leaves it to sysmon's timer watch).  A wake-up
	 * each time a G sleeps cost two system calls. */
	if (first && (pp != mp->p || !runqempty(pp) || __atomic_load_n(&sched.runqsize, __ATOMIC_ACQUIRE) != 0)) {
		wakep();
		gmp_netpoll_wake_before(rt ? gmp_nanotime() + gmp_deadline_left(t->when) : t->when);
	} else if (alone) {
		/* sysmon may sleep long while there are no timers. */
		gmp_sysmon_hurry(HURRY_WATCH);
	}
}

bool gmp_timer_del(struct gmp_timer *t)
{
	bool removed = false;
	struct p *pp = t->pp;
	if (pp == NULL)
		return false;
	lock(&pp->timers.lock);
	if (t->index >= 0) {
		heap_remove(heap_of(pp, t), t->index);
		__atomic_store_n(&t->state, TIMER_IDLE, __ATOMIC_RELAXED);
		removed = true;
	}
	unlock(&pp->timers.lock);
	if (removed && gmp_deadline_is_realtime(t->when))
		__atomic_sub_fetch(&nrealtime, 1, __ATOMIC_ACQ_REL);
	/* A collector may still be looking at this timer (and at the G's wait
	 * queue); the G must not park again until it is done. */
	while (!removed && __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == TIMER_FIRING)
		gmp_arch_pause();
	return removed;
}

/* --- looking and firing --- */

int32_t gmp_timers_realtime(void)
{
	return __atomic_load_n(&nrealtime, __ATOMIC_ACQUIRE);
}

/* pp's earliest deadline as monotonic ns (-1 none); *off caches the
 * realtime-monotonic offset across calls (INT64_MIN: not read yet). */
static int64_t p_next(struct p *pp, int64_t *off)
{
	int64_t m = __atomic_load_n(&pp->timers.mono.when0, __ATOMIC_ACQUIRE);
	int64_t r = __atomic_load_n(&pp->timers.real.when0, __ATOMIC_ACQUIRE);
	if (r >= 0) {
		if (*off == INT64_MIN)
			*off = gmp_realtime() - gmp_nanotime();
		r -= *off;
		if (r < 0)
			r = 0;
		if (m < 0 || r < m)
			m = r;
	}
	return m;
}

int64_t gmp_timers_next_p(struct p *pp)
{
	int64_t off = INT64_MIN;
	return p_next(pp, &off);
}

int64_t gmp_timers_next(void)
{
	int64_t next = -1, off = INT64_MIN;
	for (int i = 0; i < sched.gomaxprocs; i++) {
		int64_t w = p_next(&allp[i], &off);
		if (w >= 0 && (next < 0 || w < next))
			next = w;
	}
	return next;
}

bool gmp_timers_due(struct p *pp, int64_t now, int64_t slack)
{
	int64_t m = __atomic_load_n(&pp->timers.mono.when0, __ATOMIC_ACQUIRE);
	if (m >= 0 && m + slack <= now)
		return true;
	int64_t r = __atomic_load_n(&pp->timers.real.when0, __ATOMIC_ACQUIRE);
	return r >= 0 && r + slack <= gmp_realtime();
}

#define BATCH 64

/* Pops up to BATCH due timers of pp into due[], marking them FIRING. */
static int pop_due(struct p *pp, int64_t now, struct gmp_timer **due)
{
	int n = 0, nrt = 0;
	int64_t rnow = -1;
	lock(&pp->timers.lock);
	struct timerheap *mono = &pp->timers.mono, *real = &pp->timers.real;
	while (mono->n > 0 && key(mono->h[0]) <= now && n < BATCH) {
		due[n] = mono->h[0];
		__atomic_store_n(&due[n++]->state, TIMER_FIRING, __ATOMIC_RELAXED);
		heap_remove(mono, 0);
	}
	if (real->n > 0)
		rnow = gmp_realtime();
	while (real->n > 0 && key(real->h[0]) <= rnow && n < BATCH) {
		due[n] = real->h[0];
		__atomic_store_n(&due[n++]->state, TIMER_FIRING, __ATOMIC_RELAXED);
		heap_remove(real, 0);
		nrt++;
	}
	unlock(&pp->timers.lock);
	if (nrt)
		__atomic_sub_fetch(&nrealtime, nrt, __ATOMIC_ACQ_REL);
	return n;
}

struct g *gmp_timers_collect(struct p *pp, int64_t now)
{
	struct g *list = NULL;
	struct gmp_timer *due[BATCH];
	int n;
	while (gmp_timers_due(pp, now, 0) && (n = pop_due(pp, now, due)) > 0) {
		for (int i = 0; i < n; i++) {
			struct gmp_timer *t = due[i];
			struct g *gp = t->gp;
			if (gmp_semq_timeout(gp, t)) {
				gp->schedlink = list;
				list = gp;
			}
			/* Last touch of t: from here the G may reuse it. */
			__atomic_store_n(&t->state, TIMER_IDLE, __ATOMIC_RELEASE);
		}
	}
	return list;
}

struct g *gmp_timers_collect_all(struct p *skip, int64_t now, int64_t slack)
{
	struct g *list = NULL;
	for (int i = 0; i < sched.gomaxprocs; i++) {
		struct p *pp = &allp[i];
		if (pp == skip)
			continue;
		int64_t s = gmp_timers_slack(pp, slack);
		if (s < 0 || !gmp_timers_due(pp, now, s))
			continue;
		struct g *l = gmp_timers_collect(pp, now);
		while (l) {
			struct g *gp = l;
			l = gp->schedlink;
			gp->schedlink = list;
			list = gp;
		}
	}
	return list;
}

static int64_t watch; /* the watching M's deadline; 0: none */

int64_t gmp_timers_slack(struct p *pp, int64_t slack)
{
	if (slack > 0 && gmp_timers_watched(gmp_timers_next_p(pp)))
		return -1;
	uint32_t status = __atomic_load_n(&pp->status, __ATOMIC_ACQUIRE);
	return status == P_SYSCALL || status == P_IDLE ? 0 : slack;
}

int64_t gmp_timers_watch(int64_t next)
{
	int64_t cur = __atomic_load_n(&watch, __ATOMIC_ACQUIRE);
	do {
		if (next < 0 || (cur != 0 && cur <= next))
			return -1;
	} while (!__atomic_compare_exchange_n(&watch, &cur, next, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	return next;
}

/* Unless an M with an earlier deadline took the watch over.  One woken
 * early (handed a P) leaves the timer unwatched: sysmon runs it then
 * (gmp_timers_slack), as Go's sysmon starts an M for one overdue. */
void gmp_timers_unwatch(int64_t until)
{
	if (until >= 0)
		__atomic_compare_exchange_n(&watch, &until, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

bool gmp_timers_watched(int64_t when)
{
	int64_t cur = __atomic_load_n(&watch, __ATOMIC_ACQUIRE);
	return cur != 0 && cur <= when;
}

void timers_fork(enum gmp_fork_phase phase)
{
	for (int i = 0; i < sched.gomaxprocs; i++) {
		struct ptimers *ts = &allp[i].timers;
		if (phase == FORK_PREPARE) {
			lock(&ts->lock);
		} else if (phase == FORK_PARENT) {
			unlock(&ts->lock);
		} else {
			/* Every queued timer belonged to a thread that is gone
			 * (the forking one is running, so it has none). */
			ts->lock = (struct mutex){ 0 };
			struct timerheap *hs[2] = { &ts->mono, &ts->real };
			for (int k = 0; k < 2; k++) {
				for (int j = 0; j < hs[k]->n; j++)
					hs[k]->h[j]->index = -1;
				hs[k]->n = 0;
				hs[k]->when0 = -1;
			}
		}
	}
	if (phase == FORK_CHILD)
		nrealtime = 0;
	if (phase == FORK_CHILD)
		watch = 0; /* its M is gone */
}
