/* getclock returns the clock given to setclock: CLOCK_MONOTONIC and back to
 * CLOCK_REALTIME (POSIX pthread_condattr_getclock). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	clockid_t clk;
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_setclock(&a, CLOCK_MONOTONIC));
	OK(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_MONOTONIC);
	OK(pthread_condattr_setclock(&a, CLOCK_REALTIME));
	OK(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_REALTIME);
	pass();
}
