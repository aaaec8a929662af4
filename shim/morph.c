/* Wait morphing, for the condition variables of sema.c's notify lists.
 * A notified waiter whose mutex is held right now would only wake up to park again on that mutex (the thundering herd of a
 * broadcast): it moves onto the mutex's wait queue instead, the way old
 * NPTL used FUTEX_CMP_REQUEUE, and the unlock that frees the mutex wakes
 * it (GMP_WAKE_REQUEUED) or hands the mutex to it (GMP_WAKE_HANDOFF).
 * Each G moves to the mutex it waited with (g->condlock), never to
 * another, and keeps its FIFO place.  It has been notified, so its
 * timeout no longer applies: the timer is detached from any queue.
 * Takes the waiters already off the condvar's queue (G_WAITING, on no
 * queue: nothing else can ready them) and returns those to ready. */
#include "compat/layout.h"
#include "foreign.h"
#include "lock.h"
#include "morph.h"
#include "mutex.h"
#include "runtime.h"
#include "sema.h"
#include "waitq.h"

/* The TID stored next to a pthread mutex's lock word (compat/layout.h). */
static int mutex_owner(const uint32_t *w)
{
	return __atomic_load_n((const int *)((const char *)w + GMP_MUTEX_OWNER_FROM_LOCK), __ATOMIC_RELAXED);
}

struct g *gmp_morph(struct g *list)
{
	struct g *ready = NULL, **rtail = &ready;
	struct semroot *root = NULL;
	int self = gmp_self_tid();
	while (list) {
		struct g *gp = list;
		list = gp->schedlink;
		uint32_t *w = gp->condlock;
		/* Not when the notifier holds the mutex itself (the usual
		 * signal under the lock): the readied G waits on this P's run
		 * queue until the notifier parks, by when it has let go, so
		 * moving it would only add an unlock-side wake-up (measured:
		 * bench cond_pingpong, cond_broadcast).  The herd forms when
		 * someone else holds it; then readied Gs would only park
		 * again.  (The owner is read racily: it steers the choice,
		 * never the correctness.) */
		if (w != NULL && mutex_owner(w) != self) {
			struct semroot *r = semroot(w);
			if (r != root) {
				if (root)
					unlock(&root->lock);
				root = r;
				lock(&root->lock);
			}
			/* Under the mutex's bucket lock: an unlock after this
			 * sees WAITERS and looks at the queue after we leave. */
			if (gmp_mutex_mark_waiter(w)) {
				gp->wakeup = GMP_WAKE_REQUEUED;
				__atomic_store_n(&gp->timer.waitaddr, NULL, __ATOMIC_RELEASE);
				waitq_enqueue(root, w, gp);
				continue;
			}
		}
		*rtail = gp;
		rtail = &gp->schedlink;
	}
	if (root)
		unlock(&root->lock);
	*rtail = NULL;
	return ready;
}

