/* The per-P run queue: order, runnext, overflow to the global queue,
 * stealing half, and an owner/thief race in which no G may be lost or
 * taken twice. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runq.h"
#include "runtime.h"

static struct g *mkgs(int n)
{
	struct g *gs = calloc((size_t)n, sizeof *gs);
	for (int i = 0; i < n; i++)
		gs[i].goid = (uint64_t)i;
	return gs;
}

static void reset_sched(int procs)
{
	memset(&sched, 0, sizeof sched);
	sched.gomaxprocs = procs;
}

static void test_fifo_and_runnext(void **state)
{
	reset_sched(1);
	struct p pp = { 0 };
	struct g *gs = mkgs(4);
	bool inherit;
	assert_true(runqempty(&pp));
	runqput(&pp, &gs[0], false);
	runqput(&pp, &gs[1], false);
	runqput(&pp, &gs[2], true);  /* runnext */
	runqput(&pp, &gs[3], true);  /* kicks gs[2] to the tail */
	assert_int_equal(runqsize(&pp), 4);
	assert_ptr_equal(runqget(&pp, &inherit), &gs[3]);
	assert_true(inherit);
	assert_ptr_equal(runqget(&pp, &inherit), &gs[0]);
	assert_false(inherit);
	assert_ptr_equal(runqget(&pp, &inherit), &gs[1]);
	assert_ptr_equal(runqget(&pp, &inherit), &gs[2]);
	assert_null(runqget(&pp, &inherit));
	assert_true(runqempty(&pp));
	free(gs);
}

static void test_overflow_to_global(void **state)
{
	reset_sched(1);
	struct p pp = { 0 };
	struct g *gs = mkgs(RUNQ_SIZE + 1);
	for (int i = 0; i <= RUNQ_SIZE; i++)
		runqput(&pp, &gs[i], false);
	/* A full ring moved its older half plus the new G to the global queue. */
	assert_int_equal(sched.runqsize, RUNQ_SIZE / 2 + 1);
	assert_int_equal(runqsize(&pp), RUNQ_SIZE / 2);
	assert_ptr_equal(sched.runqhead, &gs[0]);
	assert_ptr_equal(sched.runqtail, &gs[RUNQ_SIZE]);
	bool inherit;
	assert_ptr_equal(runqget(&pp, &inherit), &gs[RUNQ_SIZE / 2]);
	free(gs);
}

static void test_steal_half(void **state)
{
	reset_sched(2);
	struct p victim = { .status = P_RUNNING }, thief = { 0 };
	struct g *gs = mkgs(11);
	for (int i = 0; i < 10; i++)
		runqput(&victim, &gs[i], false);
	struct g *got = runqsteal(&thief, &victim, false);
	/* 10 - 10/2 = 5 taken: one returned, four queued on the thief. */
	assert_ptr_equal(got, &gs[4]);
	assert_int_equal(runqsize(&thief), 4);
	assert_int_equal(runqsize(&victim), 5);
	bool inherit;
	assert_ptr_equal(runqget(&thief, &inherit), &gs[0]);

	/* runnext alone: only taken when allowed and the victim is idle. */
	struct p v2 = { .status = P_IDLE }, t2 = { 0 };
	runqput(&v2, &gs[10], true);
	assert_null(runqsteal(&t2, &v2, false));
	assert_ptr_equal(runqsteal(&t2, &v2, true), &gs[10]);
	assert_true(runqempty(&v2));
	free(gs);
}

static void test_runnext_taken_from_stalled_victim(void **state)
{
	/* A running victim keeps its runnext only while it keeps scheduling
	 * (its schedtick moves); one that stalls loses it to the thief. */
	reset_sched(2);
	struct p victim = { .status = P_RUNNING }, thief = { 0 };
	struct g *gs = mkgs(1);
	runqput(&victim, &gs[0], true);
	/* Nobody advances schedtick here, so the victim looks idle: taken. */
	assert_ptr_equal(runqsteal(&thief, &victim, true), &gs[0]);
	free(gs);
}

#define STRESS_GS 1000000
#define THIEVES 3

static struct p owner_p, thief_p[THIEVES];
static struct g *stress_gs;
static unsigned char *taken;
static int owner_done;
static long dup_count;

static void take(struct g *gp)
{
	if (__atomic_fetch_add(&taken[gp->goid], 1, __ATOMIC_RELAXED) != 0)
		__atomic_add_fetch(&dup_count, 1, __ATOMIC_RELAXED);
}

static void *owner(void *arg)
{
	bool inherit;
	for (int i = 0; i < STRESS_GS; i++) {
		runqput(&owner_p, &stress_gs[i], (i % 7) == 0);
		if (i % 3 == 0) {
			struct g *gp = runqget(&owner_p, &inherit);
			if (gp)
				take(gp);
		}
	}
	__atomic_store_n(&owner_done, 1, __ATOMIC_RELEASE);
	return arg;
}

static void *thief(void *arg)
{
	struct p *mine = arg;
	bool inherit;
	while (!__atomic_load_n(&owner_done, __ATOMIC_ACQUIRE)) {
		struct g *gp = runqsteal(mine, &owner_p, true);
		if (gp == NULL)
			continue;
		take(gp);
		while ((gp = runqget(mine, &inherit)))
			take(gp);
	}
	return NULL;
}

static void test_owner_thief_race(void **state)
{
	reset_sched(1 + THIEVES);
	memset(&owner_p, 0, sizeof owner_p);
	owner_p.status = P_RUNNING;
	stress_gs = mkgs(STRESS_GS);
	taken = calloc(STRESS_GS, 1);
	pthread_t o, t[THIEVES];
	for (int i = 0; i < THIEVES; i++) {
		memset(&thief_p[i], 0, sizeof thief_p[i]);
		pthread_create(&t[i], NULL, thief, &thief_p[i]);
	}
	pthread_create(&o, NULL, owner, NULL);
	pthread_join(o, NULL);
	for (int i = 0; i < THIEVES; i++)
		pthread_join(t[i], NULL);
	bool inherit;
	struct g *gp;
	while ((gp = runqget(&owner_p, &inherit)))
		take(gp);
	for (gp = sched.runqhead; gp; gp = gp->schedlink)
		take(gp);
	long missing = 0;
	for (int i = 0; i < STRESS_GS; i++)
		missing += taken[i] == 0;
	assert_int_equal(dup_count, 0);
	assert_int_equal(missing, 0);
	free(stress_gs);
	free(taken);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_and_runnext),
		cmocka_unit_test(test_overflow_to_global),
		cmocka_unit_test(test_steal_half),
		cmocka_unit_test(test_runnext_taken_from_stalled_victim),
		cmocka_unit_test(test_owner_thief_race),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
