/* pthread_getcpuclockid gives a clock that clock_gettime accepts and that
 * measures the thread's CPU time: it advances while the thread computes
 * (POSIX pthread_getcpuclockid). */
#include "../conform.h"
static void *fn(void *a)
{
	clockid_t c;
	struct timespec t0, t1;
	if (pthread_getcpuclockid(pthread_self(), &c) != 0 || clock_gettime(c, &t0) != 0)
		return NULL;
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 1000000; i++)
			x += i;
		clock_gettime(c, &t1);
	} while (t1.tv_sec == t0.tv_sec && t1.tv_nsec - t0.tv_nsec < 1000000);
	return (void *)1;
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
