/* The timer heap: a 4-ary min-heap on deadline (Go's timer heap shape),
 * one for the whole runtime for now.  Timers are added and deleted by Gs
 * and fired by whichever M runs the scheduler past their deadline. */
#include <sys/mman.h>

#include "runtime.h"
#include "netpoll.h"
#include "sema.h"

static struct mutex timerlock;
static struct gmp_timer **heap;
static int nheap, capheap;
static int64_t earliest = -1; /* heap[0]->when, read without the lock */

static void siftup(int i)
{
	struct gmp_timer *t = heap[i];
	while (i > 0) {
		int parent = (i - 1) / 4;
		if (heap[parent]->when <= t->when)
			break;
		heap[i] = heap[parent];
		heap[i]->index = i;
		i = parent;
	}
	heap[i] = t;
	t->index = i;
}

static void siftdown(int i)
{
	struct gmp_timer *t = heap[i];
	for (;;) {
		int c = 4 * i + 1;
		if (c >= nheap)
			break;
		int best = c;
		for (int k = c + 1; k < c + 4 && k < nheap; k++)
			if (heap[k]->when < heap[best]->when)
				best = k;
		if (heap[best]->when >= t->when)
			break;
		heap[i] = heap[best];
		heap[i]->index = i;
		i = best;
	}
	heap[i] = t;
	t->index = i;
}

static void heap_remove(int i)
{
	struct gmp_timer *t = heap[i];
	nheap--;
	if (i != nheap) {
		heap[i] = heap[nheap];
		heap[i]->index = i;
		siftdown(i);
		siftup(heap[i]->index);
	}
	t->index = -1;
	__atomic_store_n(&earliest, nheap ? heap[0]->when : -1, __ATOMIC_RELEASE);
}

static void grow(void)
{
	int ncap = capheap ? capheap * 2 : 1024;
	size_t oldsz = sizeof(*heap) * (size_t)capheap, newsz = sizeof(*heap) * (size_t)ncap;
	void *nh = capheap ? mremap(heap, oldsz, newsz, MREMAP_MAYMOVE)
			   : mmap(NULL, newsz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nh == MAP_FAILED)
		gmp_throw("cannot grow the timer heap");
	heap = nh;
	capheap = ncap;
}

void gmp_timer_add(struct gmp_timer *t)
{
	lock(&timerlock);
	if (nheap == capheap)
		grow();
	heap[nheap] = t;
	nheap++;
	siftup(nheap - 1);
	bool first = heap[0] == t;
	__atomic_store_n(&earliest, heap[0]->when, __ATOMIC_RELEASE);
	unlock(&timerlock);
	/* An idle M may be asleep with a later deadline: a spinning M will
	 * recompute it when it goes back to sleep. */
	if (first) {
		wakep();
		gmp_netpoll_wake_before(t->when);
	}
}

static uint32_t firing; /* timers popped but not yet processed */

bool gmp_timer_del(struct gmp_timer *t)
{
	bool removed = false;
	lock(&timerlock);
	if (t->index >= 0) {
		heap_remove(t->index);
		removed = true;
	}
	unlock(&timerlock);
	/* A collector may still be looking at this timer (and at the G's wait
	 * queue); the G must not park again until it is done. */
	while (!removed && __atomic_load_n(&firing, __ATOMIC_ACQUIRE))
		gmp_arch_pause();
	return removed;
}

int64_t gmp_timers_next(void)
{
	return __atomic_load_n(&earliest, __ATOMIC_ACQUIRE);
}

/* Pops every timer due at now and times out its G; returns the Gs to
 * ready, linked through schedlink. */
struct g *gmp_timers_collect(int64_t now)
{
	int64_t e = gmp_timers_next();
	if (e < 0 || e > now)
		return NULL;
	struct gmp_timer *due[64];
	int n = 0;
	lock(&timerlock);
	while (nheap > 0 && heap[0]->when <= now && n < 64) {
		due[n++] = heap[0];
		heap_remove(0);
	}
	if (n)
		__atomic_add_fetch(&firing, 1, __ATOMIC_ACQ_REL);
	unlock(&timerlock);
	struct g *list = NULL;
	for (int i = 0; i < n; i++) {
		struct g *gp = due[i]->gp;
		if (gmp_semq_timeout(gp, due[i])) {
			gp->schedlink = list;
			list = gp;
		}
	}
	if (n)
		__atomic_sub_fetch(&firing, 1, __ATOMIC_ACQ_REL);
	return list;
}

void timers_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&timerlock);
	} else if (phase == FORK_PARENT) {
		unlock(&timerlock);
	} else {
		/* Every queued timer belonged to a thread that is gone. */
		timerlock = (struct mutex){ 0 };
		for (int i = 0; i < nheap; i++)
			heap[i]->index = -1;
		nheap = 0;
		earliest = -1;
		firing = 0;
	}
}
