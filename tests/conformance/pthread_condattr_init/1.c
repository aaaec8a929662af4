/* pthread_condattr_init and _destroy return 0; an initialised object has the
 * defaults CLOCK_REALTIME and PTHREAD_PROCESS_PRIVATE (POSIX
 * pthread_condattr_init, pthread_condattr_getclock, _getpshared). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	clockid_t clk = -1;
	int ps = -1;
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_getclock(&a, &clk));
	CHECK(clk == CLOCK_REALTIME);
	OK(pthread_condattr_getpshared(&a, &ps));
	CHECK(ps == PTHREAD_PROCESS_PRIVATE);
	OK(pthread_condattr_destroy(&a));
	OK(pthread_condattr_init(&a));
	OK(pthread_condattr_destroy(&a));
	pass();
}
