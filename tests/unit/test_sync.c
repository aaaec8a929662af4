/* The mutex word's hand-off and the condvar notify lists with wait
 * morphing, driven on fake Gs: a waiter is a G put on the wait queue as a
 * park would put it (status G_WAITING), and readying it puts it on the
 * fake P's run queue, where the test finds it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "compat/layout.h"
#include "morph.h"
#include "mutex.h"
#include "proc.h"
#include "runq.h"
#include "runtime.h"
#include "sema.h"
#include "waitq.h"

#define NG 8

static struct m fake_m;
static struct g running, gs[NG];

/* A pthread_mutex_t's first words: the lock word, then (at
 * GMP_MUTEX_OWNER_FROM_LOCK) the owner's TID. */
static union {
	uint32_t w[10];
	uint64_t align;
} mtx;

static int setup(void **state)
{
	gmp_procs_init(1);
	sched.npidle = 0; /* keep wakep quiet: there are no Ms */
	running.m = &fake_m;
	running.tid = 5;
	running.status = G_RUNNING;
	fake_m.p = &allp[0];
	fake_m.curg = &running;
	gmp_curg_tls = &running;
	return 0;
}

static int reset(void **state)
{
	memset(gs, 0, sizeof gs);
	memset(&mtx, 0, sizeof mtx);
	bool inherit;
	while (runqget(&allp[0], &inherit))
		;
	return 0;
}

/* gs[i] parked on addr, as gopark leaves a G. */
static struct g *park_on(int i, const void *addr)
{
	struct g *gp = &gs[i];
	gp->status = G_WAITING;
	gp->waitbits = ~0u; /* as a plain futex wait */
	gp->wakeup = 0;
	gp->timer.index = -1;
	gp->timer.gp = gp;
	waitq_enqueue(semroot(addr), addr, gp);
	return gp;
}

/* The Gs readied so far, in run-queue order. */
static int readied(struct g **out)
{
	int n = 0;
	bool inherit;
	struct g *gp;
	while ((gp = runqget(&allp[0], &inherit)))
		out[n++] = gp;
	return n;
}

static void set_owner(int tid)
{
	memcpy((char *)mtx.w + GMP_MUTEX_OWNER_FROM_LOCK, &tid, sizeof tid);
}

static void test_trylock_respects_starvation(void **state)
{
	uint32_t *w = &mtx.w[0];
	assert_int_equal(gmp_mutex_trylock(w), 0);
	assert_int_equal(*w, GMP_MUTEX_LOCKED);
	assert_int_equal(gmp_mutex_trylock(w), EBUSY);
	/* Free but starving: the lock belongs to the oldest waiter. */
	*w = GMP_MUTEX_STARVING | GMP_MUTEX_WAITERS;
	assert_int_equal(gmp_mutex_trylock(w), EBUSY);
}

static void test_unlock_normal_wakes_one_to_compete(void **state)
{
	uint32_t *w = &mtx.w[0];
	park_on(0, w);
	park_on(1, w);
	*w = GMP_MUTEX_LOCKED | GMP_MUTEX_WAITERS;
	gmp_mutex_unlock(w);
	/* Released, not handed over: the woken waiter competes. */
	assert_int_equal(*w, 0);
	struct g *r[NG];
	assert_int_equal(readied(r), 1);
	assert_ptr_equal(r[0], &gs[0]);
	assert_int_equal(gs[0].wakeup, 0);
	assert_int_equal(gs[0].status, G_RUNNABLE);
	assert_ptr_equal(waitq_head(semroot(w), w), &gs[1]);
	/* No waiter bit: nobody is looked for. */
	*w = GMP_MUTEX_LOCKED;
	gmp_mutex_unlock(w);
	assert_int_equal(readied(r), 0);
	assert_ptr_equal(waitq_dequeue(semroot(w), w), &gs[1]);
}

static void test_unlock_starving_hands_off_in_fifo_order(void **state)
{
	uint32_t *w = &mtx.w[0];
	for (int i = 0; i < 3; i++)
		park_on(i, w);
	*w = GMP_MUTEX_LOCKED | GMP_MUTEX_WAITERS | GMP_MUTEX_STARVING;
	struct g *r[NG];
	for (int i = 0; i < 3; i++) {
		gmp_mutex_unlock(w);
		/* The lock goes straight to the oldest waiter: still locked,
		 * still starving while others wait, plain LOCKED for the last. */
		assert_int_equal(readied(r), 1);
		assert_ptr_equal(r[0], &gs[i]);
		assert_int_equal(gs[i].wakeup, GMP_WAKE_HANDOFF);
		if (i < 2)
			assert_int_equal(*w, GMP_MUTEX_LOCKED | GMP_MUTEX_WAITERS | GMP_MUTEX_STARVING);
		else
			assert_int_equal(*w, GMP_MUTEX_LOCKED);
		assert_int_equal(gmp_mutex_trylock(w), EBUSY);
	}
	gmp_mutex_unlock(w);
	assert_int_equal(*w, 0);
	assert_int_equal(readied(r), 0);
}

static void test_mark_waiter(void **state)
{
	uint32_t *w = &mtx.w[0];
	assert_false(gmp_mutex_mark_waiter(w)); /* free: nothing to queue behind */
	*w = GMP_MUTEX_LOCKED;
	assert_true(gmp_mutex_mark_waiter(w));
	assert_int_equal(*w, GMP_MUTEX_LOCKED | GMP_MUTEX_WAITERS);
}

static uint32_t cwait, cnotify; /* a condvar's two counters */
static int condobj;

/* gs[i] waiting on the condvar with ticket t, relocking lock (or none). */
static struct g *cond_waiter(int i, uint32_t t, uint32_t *lock)
{
	struct g *gp = park_on(i, &condobj);
	gp->ticket = t;
	gp->condlock = lock;
	return gp;
}

static void test_notify_one_takes_the_ticket_holder(void **state)
{
	cwait = cnotify = 0;
	uint32_t t0 = gmp_notify_add(&cwait), t1 = gmp_notify_add(&cwait), t2 = gmp_notify_add(&cwait);
	assert_int_equal(t0, 0);
	assert_int_equal(t2, 2);
	/* Queued out of ticket order: t1 first in the queue. */
	cond_waiter(1, t1, NULL);
	cond_waiter(0, t0, NULL);
	cond_waiter(2, t2, NULL);
	struct g *r[NG];
	gmp_notify_one(&condobj, &cwait, &cnotify);
	assert_int_equal(cnotify, 1);
	assert_int_equal(readied(r), 1);
	assert_ptr_equal(r[0], &gs[0]); /* ticket 0, not the queue's head */
	/* Ticket 1 timed out and left: the signal goes to the oldest waiter
	 * instead of being lost. */
	waitq_remove(semroot(&condobj), &gs[1]);
	gmp_notify_one(&condobj, &cwait, &cnotify);
	assert_int_equal(readied(r), 1);
	assert_ptr_equal(r[0], &gs[2]);
	/* Everyone notified: the fast path does nothing. */
	gmp_notify_one(&condobj, &cwait, &cnotify);
	assert_int_equal(cnotify, 3);
	assert_int_equal(readied(r), 0);
}

static void test_notify_all_and_morph(void **state)
{
	cwait = cnotify = 0;
	uint32_t *w = &mtx.w[0];
	/* The mutex is held by someone else (TID 7): waiters that relock it
	 * move onto its queue; one without a mutex is readied. */
	*w = GMP_MUTEX_LOCKED;
	set_owner(7);
	for (int i = 0; i < 4; i++)
		cond_waiter(i, gmp_notify_add(&cwait), i == 2 ? NULL : w);
	gmp_notify_all(&condobj, &cwait, &cnotify);
	assert_int_equal(cnotify, 4);
	struct g *r[NG];
	assert_int_equal(readied(r), 1);
	assert_ptr_equal(r[0], &gs[2]);
	assert_int_equal(*w, GMP_MUTEX_LOCKED | GMP_MUTEX_WAITERS);
	/* Moved in their FIFO order, marked requeued, timers detached. */
	struct semroot *root = semroot(w);
	for (int i = 0; i < 4; i++) {
		if (i == 2)
			continue;
		struct g *gp = waitq_dequeue(root, w);
		assert_ptr_equal(gp, &gs[i]);
		assert_int_equal(gp->wakeup, GMP_WAKE_REQUEUED);
		assert_int_equal(gp->status, G_WAITING);
	}
	assert_null(waitq_head(root, w));
	assert_null(waitq_head(semroot(&condobj), &condobj));
}

static void test_morph_not_behind_the_notifier(void **state)
{
	uint32_t *w = &mtx.w[0];
	/* The notifier itself holds the mutex (the usual signal under the
	 * lock): the waiter is readied, not moved. */
	*w = GMP_MUTEX_LOCKED;
	set_owner(running.tid);
	struct g *gp = cond_waiter(0, 0, w);
	waitq_remove(semroot(&condobj), gp);
	gp->schedlink = NULL;
	assert_ptr_equal(gmp_morph(gp), gp);
	/* A free mutex gets nobody queued behind it either. */
	*w = 0;
	set_owner(7);
	gp->schedlink = NULL;
	assert_ptr_equal(gmp_morph(gp), gp);
	assert_null(waitq_head(semroot(w), w));
	assert_int_equal(*w, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_trylock_respects_starvation, reset),
		cmocka_unit_test_setup(test_unlock_normal_wakes_one_to_compete, reset),
		cmocka_unit_test_setup(test_unlock_starving_hands_off_in_fifo_order, reset),
		cmocka_unit_test_setup(test_mark_waiter, reset),
		cmocka_unit_test_setup(test_notify_one_takes_the_ticket_holder, reset),
		cmocka_unit_test_setup(test_notify_all_and_morph, reset),
		cmocka_unit_test_setup(test_morph_not_behind_the_notifier, reset),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
