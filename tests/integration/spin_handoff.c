/* Threads that busy-wait for each other: a ring of three threads passes
 * a turn around through memory, each spinning with the CPU's spin-wait
 * hint (PAUSE, YIELD) until the turn is its own, as an OpenMP ordered loop
 * or barrier does under an active wait policy.  With more spinners than
 * Ps only preemption hands the turn on; every hand-off must arrive, in
 * order.  Under the shim the preemptions that found a thread spinning are
 * counted (spin_preemptions), which gives those threads short slices
 * (docs/design.md, Preemption): with GMPDEBUG=spinwait=0 the count stays
 * 0 and this test fails. */
#include <stdatomic.h>

#include "check.h"

#define RING 3
#define ROUNDS 150

static atomic_long turn;
static long order_errors;

static void spin_hint(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static void take_turns(int me)
{
	for (long r = 0; r < ROUNDS; r++) {
		long mine = r * RING + me;
		while (atomic_load(&turn) != mine)
			spin_hint();
		if (atomic_fetch_add(&turn, 1) != mine)
			order_errors++;
	}
}

static void *member(void *arg)
{
	take_turns((int)(intptr_t)arg);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_t t[RING - 1];
	for (int i = 1; i < RING; i++)
		pthread_create(&t[i - 1], NULL, member, (void *)(intptr_t)i);
	take_turns(0);
	for (int i = 1; i < RING; i++)
		pthread_join(t[i - 1], NULL);
	CHECK(atomic_load(&turn) == (long)RING * ROUNDS && order_errors == 0,
	      "every turn was passed on, in order");
	struct gmpshim_stats st;
	CHECK(!under_shim() || (gmpshim_stats(&st) == 0 && st.spin_preemptions > 0),
	      "under the shim, preemptions found the threads spinning");
	CHECK(made_as_gs(RING - 1), "the threads were made as Gs under the shim");
	return failures != 0;
}
