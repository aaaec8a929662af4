/* The M's side of sysmon taking its P during a call the shim never saw
 * (rescue.c, syscall.c): a fake M and G whose pstolen word sysmon's side
 * would have set.  PENDING means sysmon has not decided: the M keeps its
 * P and sysmon's CAS must fail.  TAKEN means the P is gone: the G must end
 * up as entersyscall leaves it, without a P to come back to, and its next
 * gmp_getp takes an idle P. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "proc.h"
#include "runtime.h"
#include "syscall.h"

static struct m fake_m;
static struct g running;

static int setup(void **state)
{
	gmp_procs_init(2);
	return 0;
}

/* The G running on fake_m, which holds allp[0]; allp[1] idle. */
static int reset(void **state)
{
	memset(&fake_m, 0, sizeof fake_m);
	memset(&running, 0, sizeof running);
	running.m = &fake_m;
	running.status = G_RUNNING;
	fake_m.curg = &running;
	fake_m.p = &allp[0];
	allp[0].m = &fake_m;
	allp[0].status = P_RUNNING;
	gmp_curg_tls = &running;
	return 0;
}

static void test_nothing_asked(void **state)
{
	gmp_checkp(&fake_m);
	assert_ptr_equal(fake_m.p, &allp[0]);
	assert_int_equal(running.status, G_RUNNING);
	assert_false(running.rescued);
}

static void test_pending_keeps_p(void **state)
{
	fake_m.pstolen = PSTOLEN_PENDING;
	gmp_checkp(&fake_m);
	assert_int_equal(fake_m.pstolen, PSTOLEN_NONE);
	assert_ptr_equal(fake_m.p, &allp[0]);
	assert_int_equal(running.status, G_RUNNING);
	/* sysmon's decision now loses. */
	uint32_t want = PSTOLEN_PENDING;
	assert_false(__atomic_compare_exchange_n(&fake_m.pstolen, &want, PSTOLEN_TAKEN, 0, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE));
}

static void test_taken_leaves_g_in_syscall(void **state)
{
	/* What sysmon does once it wins: the P is no longer this M's. */
	fake_m.stolenpc = 0x1234;
	fake_m.stolensp = 0x5678;
	fake_m.pstolen = PSTOLEN_TAKEN;
	allp[0].m = NULL;
	allp[0].status = P_IDLE;
	gmp_checkp(&fake_m);
	assert_int_equal(fake_m.pstolen, PSTOLEN_NONE);
	assert_null(fake_m.p);
	assert_null(fake_m.oldp);
	assert_int_equal(running.status, G_SYSCALL);
	assert_true(running.rescued);
	assert_int_equal(running.syscallpc, 0x1234);
	assert_int_equal(running.syscallsp, 0x5678);
	/* Its next entry into the runtime takes an idle P (allp[1], the
	 * idle list's head) and the G runs again. */
	struct p *pp = gmp_getp();
	assert_non_null(pp);
	assert_ptr_equal(fake_m.p, pp);
	assert_ptr_equal(pp->m, &fake_m);
	assert_int_equal(running.status, G_RUNNING);
	assert_false(running.rescued);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_nothing_asked, reset),
		cmocka_unit_test_setup(test_pending_keeps_p, reset),
		cmocka_unit_test_setup(test_taken_leaves_g_in_syscall, reset),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
