/* A G waiting on several polled fds at once (poll, select): Go's select
 * parks one G on many channels with a sudog per channel; here a
 * pollwaiter per fd, on the G's stack, is linked on that fd's descriptor,
 * and every one of them points at a single wake word on the G's stack.
 *
 * No edge may be lost between the caller's non-blocking probe and the
 * park.  The caller reads each fd's evgen before its probe; we link each
 * node and then re-read evgen, the poller bumps evgen and then looks at
 * the list.  Both pairs are sequentially consistent, so either we see the
 * bump (and give up the park: the caller probes again) or the poller sees
 * our node (and wakes us).  The wake word is itself a user-space futex:
 * the waker flips it 0 -> 1 before it collects the G from the wait-queue
 * table, and the G parks only while it still reads 0, so a wake that
 * comes before the park makes the park fail.  Only the waker that flips
 * the word touches the G; the others see 1 and move on.
 *
 * The nodes live on the G's stack, so a waker may follow them only under
 * the descriptor's wlock, and the G unlinks every node under that lock
 * before it returns.  Lock order: wlock, then the wait-queue bucket. */
#include <errno.h>

#include "lock.h"
#include "netpoll.h"
#include "runtime.h"
#include "sema.h"

static void unlink_node(struct pollwaiter *w)
{
	struct polldesc *pd = w->pd;
	lock(&pd->wlock);
	if (w->next)
		w->next->pprev = w->pprev;
	__atomic_store_n(w->pprev, w->next, __ATOMIC_RELAXED); /* pd->waiters is read unlocked */
	unlock(&pd->wlock);
}

int gmp_netpoll_wait_many(struct pollwaiter *w, int n, int64_t deadline)
{
	uint32_t fired = 0;
	int linked = 0;
	bool moved = false;
	while (linked < n && !moved) {
		struct pollwaiter *x = &w[linked++];
		struct polldesc *pd = x->pd;
		x->fired = &fired;
		lock(&pd->wlock);
		x->next = pd->waiters;
		if (x->next)
			x->next->pprev = &x->next;
		x->pprev = &pd->waiters;
		__atomic_store_n(&pd->waiters, x, __ATOMIC_SEQ_CST);
		moved = __atomic_load_n(&pd->evgen, __ATOMIC_SEQ_CST) != x->gen;
		unlock(&pd->wlock);
	}
	int r = 0;
	if (!moved) {
		/* With no fd at all (poll of none, select of empty sets) this
		 * is a sleep, and nothing for the poller to watch. */
		gmp_netpoll_waiter_count(n > 0);
		r = gmp_futexwait(&fired, 0, deadline, WAIT_SELECT);
		gmp_netpoll_waiter_count(-(n > 0));
	}
	for (int i = 0; i < linked; i++)
		unlink_node(&w[i]);
	return r == ETIMEDOUT || r == EINTR ? r : 0;
}

struct g *gmp_pollwaiters_wake(struct polldesc *pd, struct g *list)
{
	if (__atomic_load_n(&pd->waiters, __ATOMIC_SEQ_CST) == NULL)
		return list;
	lock(&pd->wlock);
	for (struct pollwaiter *w = pd->waiters; w; w = w->next)
		if (__atomic_exchange_n(w->fired, 1, __ATOMIC_ACQ_REL) == 0)
			list = gmp_semq_collect(w->fired, list);
	unlock(&pd->wlock);
	return list;
}
