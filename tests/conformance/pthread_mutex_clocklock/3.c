/* pthread_mutex_clocklock on a free mutex succeeds at once with either
 * clock, even with an expired abstime (POSIX pthread_mutex_clocklock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	struct timespec past = {0, 0};
	OK(pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &past));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_clocklock(&m, CLOCK_REALTIME, &past));
	OK(pthread_mutex_unlock(&m));
	pass();
}
