/* Issue 19 (b): a higher-priority SCHED_FIFO thread busy-looping keeps a
 * lower-priority one from running on its CPU (natively: both pinned to
 * one CPU; under the shim: one P for them, rt.h).  The loop is bounded
 * (200 ms), so a failure cannot hang the machine, and far below the
 * kernel's realtime throttling (950 ms a second). */
#include "rt.h"

static volatile int low_ran, high_saw_low = -1;

static void *low(void *arg)
{
	(void)arg;
	low_ran = 1;
	return NULL;
}

static void *high(void *arg)
{
	(void)arg;
	long end = rt_now_ms() + 200;
	while (!low_ran && rt_now_ms() < end)
		;
	high_saw_low = low_ran;
	return NULL;
}

int main(void)
{
	rt_setup();
	pthread_t l, h;
	rt_create(&l, low, NULL, SCHED_FIFO, 10);
	rt_create(&h, high, NULL, SCHED_FIFO, 20);
	pthread_join(h, NULL);
	pthread_join(l, NULL);
	CHECK(high_saw_low == 0, "a busy SCHED_FIFO 20 thread keeps a SCHED_FIFO 10 one off its CPU");
	CHECK(low_ran, "the lower one runs once the higher one is done");
	rt_teardown();
	CHECK(made_as_gs(2), "threads ran as Gs");
	return failures != 0;
}
