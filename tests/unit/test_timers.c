/* Per-P timer heaps and realtime deadlines.  CLOCK_REALTIME cannot be set
 * in a test without disturbing the machine (it is not namespaced), so a
 * clock change is played by the skew gmp_realtime adds: realtime timers
 * must follow it, monotonic ones must not. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "proc.h"
#include "runq.h"
#include "runtime.h"
#include "sema.h"
#include "timer.h"
#include "waitq.h"

#define NG 64
#define HOUR (3600LL * 1000000000LL)

static struct m fake_m;
static struct g running, gs[NG];
static long words[NG];

static int setup(void **state)
{
	gmp_procs_init(2);
	sched.npidle = 0; /* keep wakep quiet: there are no Ms */
	running.m = &fake_m;
	fake_m.p = &allp[0];
	gmp_curg_tls = &running;
	/* The runtime's own threads run here too (gmp_init is a
	 * constructor), and sysmon runs a due timer no idle M watches.  Watch
	 * every deadline from here, as an idle M would, so that the tests'
	 * collections are the only ones. */
	if (gmp_timers_watch(1) != 1)
		return -1;
	return 0;
}

/* Parks gs[i] (as far as the wait queue and its timer know) on words[i]
 * with deadline d (-1: none), its timer on P pp. */
static struct g *park(int i, int64_t d, struct p *pp)
{
	struct g *gp = &gs[i];
	fake_m.p = pp;
	struct semroot *root = semroot(&words[i]);
	waitq_enqueue(root, &words[i], gp);
	gp->wakeup = 0;
	gp->timer = (struct gmp_timer){ .when = d, .index = -1, .gp = gp, .waitaddr = &words[i] };
	if (d >= 0)
		gmp_timer_add(&gp->timer);
	fake_m.p = &allp[0];
	return gp;
}

static int count(struct g *list)
{
	int n = 0;
	for (; list; list = list->schedlink)
		n++;
	return n;
}

static void test_realtime_follows_clock_forward(void **state)
{
	int64_t rt = GMP_DEADLINE_REALTIME | (gmp_realtime() + HOUR);
	int64_t mono = gmp_nanotime() + HOUR;
	struct g *r = park(0, rt, &allp[0]);
	park(1, mono, &allp[0]);
	assert_null(gmp_timers_collect(&allp[0], gmp_nanotime()));
	int64_t next = gmp_timers_next();
	assert_true(next > gmp_nanotime() + HOUR - 1000000000LL);

	/* The clock jumps an hour and a second ahead. */
	gmp_timers_set_skew(HOUR + 1000000000LL);
	assert_true(gmp_deadline_left(rt) < 0);
	assert_true(gmp_timers_next() <= gmp_nanotime());
	struct g *list = gmp_timers_collect(&allp[0], gmp_nanotime());
	assert_ptr_equal(list, r);
	assert_int_equal(count(list), 1);
	assert_int_equal(r->wakeup, ETIMEDOUT);
	assert_null(r->waitaddr);
	assert_int_equal(r->timer.state, TIMER_IDLE);
	assert_false(gmp_timer_del(&r->timer)); /* already fired */
	assert_int_equal(gmp_timers_realtime(), 0);

	/* The monotonic one did not move. */
	assert_true(gmp_timer_del(&gs[1].timer));
	assert_int_equal(gmp_timers_next(), -1);
	gmp_timers_set_skew(0);
}

static void test_realtime_follows_clock_backward(void **state)
{
	int64_t rt = GMP_DEADLINE_REALTIME | (gmp_realtime() + 1000000);
	struct g *r = park(2, rt, &allp[1]);
	assert_int_equal(gmp_timers_realtime(), 1);
	/* The clock goes back an hour: 1 ms from now is an hour away. */
	gmp_timers_set_skew(-HOUR);
	int64_t later = gmp_nanotime() + 5000000;
	assert_null(gmp_timers_collect_all(NULL, later, 0));
	assert_true(gmp_timers_next() > gmp_nanotime() + HOUR - 1000000000LL);
	/* And forward again. */
	gmp_timers_set_skew(0);
	while (gmp_deadline_left(rt) > 0)
		;
	/* Another P's timer, collected by whoever looks at all of them. */
	assert_null(gmp_timers_collect_all(&allp[1], gmp_nanotime(), 0));
	struct g *list = gmp_timers_collect_all(&allp[0], gmp_nanotime(), 0);
	assert_ptr_equal(list, r);
	assert_int_equal(r->wakeup, ETIMEDOUT);
	assert_int_equal(gmp_timers_realtime(), 0);
}

static int64_t raw_realtime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#define MS 1000000LL

static void test_heap_order_and_delete(void **state)
{
	/* Deadlines 0-52 ms apart in a scrambled order, on both clocks and
	 * both Ps; some deleted; each collection takes exactly those due. */
	int64_t base = gmp_nanotime() + HOUR, rbase = raw_realtime() + HOUR;
	for (int i = 10; i < NG; i++) {
		int64_t off = (int64_t)((i * 37) % 53) * MS;
		park(i, i % 2 ? base + off : (GMP_DEADLINE_REALTIME | (rbase + off)), &allp[(i / 2) % 2]);
	}
	for (int i = 10; i < NG; i += 5)
		assert_true(gmp_timer_del(&gs[i].timer));
	int fired = 0;
	for (int64_t step = 0; step <= 53 * MS; step += MS) {
		/* Both clocks at base + step (the realtime one through the
		 * skew; it runs on by microseconds meanwhile, far below 1 ms). */
		gmp_timers_set_skew(rbase + step - raw_realtime());
		struct g *list = gmp_timers_collect_all(NULL, base + step, 0);
		for (struct g *gp = list; gp; gp = gp->schedlink) {
			int i = (int)(gp - gs);
			assert_true((int64_t)((i * 37) % 53) * MS <= step);
			assert_true(i % 5 != 0);
			assert_int_equal(gp->wakeup, ETIMEDOUT);
			fired++;
		}
	}
	gmp_timers_set_skew(0);
	int expect = 0;
	for (int i = 10; i < NG; i++)
		expect += i % 5 != 0;
	assert_int_equal(fired, expect);
	assert_int_equal(gmp_timers_next(), -1);
	assert_int_equal(gmp_timers_realtime(), 0);
}

/* The hook signal delivery will use: a parked G taken off its queue
 * returns EINTR, and its timer, deleted by the G, no longer fires. */
static void test_interrupt_parked(void **state)
{
	struct g *gp = park(3, gmp_nanotime() + HOUR, &allp[0]);
	assert_true(gmp_semq_interrupt(gp, EINTR));
	assert_int_equal(gp->wakeup, EINTR);
	assert_null(gp->waitaddr);
	assert_false(gmp_semq_interrupt(gp, EINTR)); /* no longer parked */
	assert_true(gmp_timer_del(&gp->timer));
	assert_int_equal(gmp_timers_next(), -1);

	/* The whole hook, from a context without a P: the G is readied on
	 * the global queue. */
	gp = park(4, -1, &allp[0]); /* untimed */
	gp->status = G_WAITING;
	assert_true(gmp_wake_interrupted(gp, NULL));
	assert_int_equal(gp->status, G_RUNNABLE);
	assert_int_equal(gp->wakeup, EINTR);
	assert_int_equal(sched.runqsize, 1);
	assert_false(gmp_wake_interrupted(gp, NULL));
}

/* The 4-ary heap itself at a size where every level is used: after any
 * mix of adds and deletes from arbitrary positions, each timer is no
 * earlier than its parent, knows its own index, and the earliest is at
 * the top. */
#define NBIG 3000
static struct g big[NBIG];
static long bigwords[NBIG];

static void check_heap(const struct timerheap *hp)
{
	for (int i = 0; i < hp->n; i++) {
		assert_int_equal(hp->h[i]->index, i);
		if (i > 0)
			assert_true(hp->h[(i - 1) / 4]->when <= hp->h[i]->when);
	}
	assert_true(hp->n == 0 ? hp->when0 == -1 : hp->when0 == hp->h[0]->when);
}

static void test_heap_invariant_many(void **state)
{
	struct timerheap *hp = &allp[0].timers.mono;
	int64_t base = gmp_nanotime() + HOUR;
	uint32_t x = 12345;
	for (int i = 0; i < NBIG; i++) {
		x = x * 1103515245u + 12345u;
		struct g *gp = &big[i];
		struct semroot *root = semroot(&bigwords[i]);
		waitq_enqueue(root, &bigwords[i], gp);
		gp->timer = (struct gmp_timer){ .when = base + (int64_t)(x % 100000) * 1000, .index = -1, .gp = gp,
						.waitaddr = &bigwords[i] };
		gmp_timer_add(&gp->timer);
	}
	assert_int_equal(hp->n, NBIG);
	check_heap(hp);
	/* Delete a third, scattered over the heap (and so over its levels). */
	int left = NBIG;
	for (int i = 0; i < NBIG; i += 3) {
		assert_true(gmp_timer_del(&big[i].timer));
		assert_false(gmp_timer_del(&big[i].timer)); /* once */
		waitq_remove(semroot(&bigwords[i]), &big[i]);
		left--;
		if (i % 300 == 0)
			check_heap(hp);
	}
	check_heap(hp);
	assert_int_equal(hp->n, left);
	int64_t min = -1;
	for (int i = 0; i < NBIG; i++)
		if (i % 3 != 0 && (min < 0 || big[i].timer.when < min))
			min = big[i].timer.when;
	assert_true(gmp_timers_next_p(&allp[0]) == min);
	/* All due at once: every remaining one fires exactly once. */
	struct g *list = gmp_timers_collect(&allp[0], base + HOUR);
	assert_int_equal(count(list), left);
	for (struct g *gp = list; gp; gp = gp->schedlink) {
		assert_int_equal((int)(gp - big) % 3 != 0, 1);
		assert_int_equal(gp->wakeup, ETIMEDOUT);
	}
	assert_int_equal(hp->n, 0);
	check_heap(hp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_realtime_follows_clock_forward),
		cmocka_unit_test(test_realtime_follows_clock_backward),
		cmocka_unit_test(test_heap_order_and_delete),
		cmocka_unit_test(test_interrupt_parked),
		cmocka_unit_test(test_heap_invariant_many),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
