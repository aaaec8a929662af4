/* The global run queue: FIFO, fair shares per P, nothing lost. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "globrunq.h"
#include "lock.h"
#include "runq.h"
#include "runtime.h"

static struct g *mkgs(int n)
{
	struct g *gs = calloc((size_t)n, sizeof *gs);
	for (int i = 0; i < n; i++)
		gs[i].goid = (uint64_t)i;
	return gs;
}

static void test_fifo(void **state)
{
	memset(&sched, 0, sizeof sched);
	sched.gomaxprocs = 1;
	struct g *gs = mkgs(3);
	struct p pp = { 0 };
	lock(&sched.lock);
	globrunqput(&gs[0]);
	gs[1].schedlink = &gs[2];
	globrunqputbatch(&gs[1], &gs[2], 2);
	assert_int_equal(sched.runqsize, 3);
	assert_ptr_equal(globrunqget(&pp, 1), &gs[0]);
	assert_ptr_equal(globrunqget(&pp, 1), &gs[1]);
	assert_ptr_equal(globrunqget(&pp, 1), &gs[2]);
	assert_null(globrunqget(&pp, 1));
	unlock(&sched.lock);
	free(gs);
}

static void test_fair_share(void **state)
{
	memset(&sched, 0, sizeof sched);
	sched.gomaxprocs = 4;
	struct g *gs = mkgs(100);
	struct p ps[4];
	memset(ps, 0, sizeof ps);
	for (int i = 0; i < 100; i++)
		globrunqput(&gs[i]);
	/* size / gomaxprocs + 1 = 26: one returned, 25 moved to the P. */
	struct g *first = globrunqget(&ps[0], 0);
	assert_ptr_equal(first, &gs[0]);
	assert_int_equal(runqsize(&ps[0]), 25);
	assert_int_equal(sched.runqsize, 74);
	/* max caps the batch. */
	assert_ptr_equal(globrunqget(&ps[1], 1), &gs[26]);
	assert_int_equal(runqsize(&ps[1]), 0);
	/* Each P in turn gets a share until the queue is empty; none lost. */
	int got = 2 + 25;
	for (int round = 0; sched.runqsize > 0; round++) {
		struct p *pp = &ps[round % 4];
		int before = runqsize(pp);
		if (globrunqget(pp, 0))
			got += 1 + runqsize(pp) - before;
	}
	assert_int_equal(got, 100);
	assert_null(sched.runqhead);
	free(gs);
}

static void test_batch_limit(void **state)
{
	memset(&sched, 0, sizeof sched);
	sched.gomaxprocs = 1;
	struct g *gs = mkgs(1000);
	struct p pp = { 0 };
	for (int i = 0; i < 1000; i++)
		globrunqput(&gs[i]);
	globrunqget(&pp, 0);
	/* Never more than half a local queue at once. */
	assert_int_equal(runqsize(&pp), RUNQ_SIZE / 2 - 1);
	assert_int_equal(sched.runqsize, 1000 - RUNQ_SIZE / 2);
	free(gs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_fair_share),
		cmocka_unit_test(test_batch_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
