/* clock_nanosleep on a clock that does not exist fails with EINVAL, and
 * a relative sleep on CLOCK_BOOTTIME sleeps (POSIX clock_nanosleep; LTP's
 * clock_nanosleep/13-1). */
#include "../conform.h"
int main(void)
{
	struct timespec ts = { 0, 10000000 }, a, b;
	CHECK(clock_nanosleep((clockid_t)99999, 0, &ts, NULL) == EINVAL);
	clock_gettime(CLOCK_MONOTONIC, &a);
	OK(clock_nanosleep(CLOCK_BOOTTIME, 0, &ts, NULL));
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) >= 10000000L);
	pass();
}
