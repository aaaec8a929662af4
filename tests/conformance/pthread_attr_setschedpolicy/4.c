/* SCHED_RR threads of one priority sharing a processor take turns: each
 * sees the other run before it is done (POSIX 2.8.4, SCHED_RR).  Bounded
 * to 2 s. */
#include "../rt.h"
static volatile long count[2];
static int turns[2];
static void *fn(void *a)
{
	int me = (int)(intptr_t)a, other = !me;
	long end = rt_ms() + 2000, last = count[other];
	while (turns[me] < 3 && rt_ms() < end) {
		count[me]++;
		if (count[other] != last) {
			last = count[other];
			turns[me]++;
		}
	}
	return NULL;
}
int main(void)
{
	pthread_t t[2];
	rt_setup();
	for (int i = 0; i < 2; i++)
		t[i] = rt_spawn(fn, (void *)(intptr_t)i, SCHED_RR, 10);
	for (int i = 0; i < 2; i++)
		join(t[i]);
	rt_teardown();
	CHECK(turns[0] >= 3 && turns[1] >= 3);
	pass();
}
