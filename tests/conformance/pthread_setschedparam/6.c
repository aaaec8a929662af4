/* A runnable SCHED_FIFO thread of a higher priority keeps a lower one
 * from running on its processor for as long as it runs (POSIX 2.8.4,
 * SCHED_FIFO).  The higher one runs 200 ms at most. */
#include "../rt.h"
static volatile int low_ran, saw = -1;
static void *low(void *a)
{
	low_ran = 1;
	return a;
}
static void *high(void *a)
{
	long end = rt_ms() + 200;
	while (!low_ran && rt_ms() < end)
		;
	saw = low_ran;
	return a;
}
int main(void)
{
	rt_setup();
	pthread_t l = rt_spawn(low, NULL, SCHED_FIFO, 10);
	pthread_t h = rt_spawn(high, NULL, SCHED_FIFO, 20);
	join(h);
	join(l);
	rt_teardown();
	CHECK(saw == 0);
	CHECK(low_ran == 1);
	pass();
}
