/* SCHED_RR threads of one priority on one CPU take turns at the end of
 * each time slice; SCHED_FIFO ones do not: the first runs until it is
 * done.  Natively the slice is 100 ms (sched_rr_timeslice_ms), under the
 * shim GMP_TIMESLICE; every loop is bounded (2 s). */
#include "rt.h"

static volatile long count[2];
static int turns[2];
static volatile int fifo_seen[2] = { -1, -1 };

static void *rr(void *arg)
{
	int me = (int)(long)arg, other = !me;
	long end = rt_now_ms() + 2000, last = count[other];
	while (turns[me] < 3 && rt_now_ms() < end) {
		count[me]++;
		if (count[other] != last) {
			last = count[other];
			turns[me]++;
		}
	}
	return NULL;
}

static void *fifo(void *arg)
{
	int me = (int)(long)arg, other = !me;
	long end = rt_now_ms() + 250, first = count[other];
	while (rt_now_ms() < end && count[other] == first)
		count[me]++;
	fifo_seen[me] = count[other] != first;
	count[me]++;
	return NULL;
}

int main(void)
{
	rt_setup();
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		rt_create(&t[i], rr, (void *)(long)i, SCHED_RR, 10);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(turns[0] >= 3 && turns[1] >= 3, "SCHED_RR of one priority: each saw the other run 3 times");
	if (turns[0] < 3 || turns[1] < 3)
		fprintf(stderr, "turns: %d %d\n", turns[0], turns[1]);

	count[0] = count[1] = 0;
	for (int i = 0; i < 2; i++)
		rt_create(&t[i], fifo, (void *)(long)i, SCHED_FIFO, 10);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(fifo_seen[0] == 0, "SCHED_FIFO of one priority: the first runs until it is done");
	rt_teardown();
	CHECK(made_as_gs(4), "threads ran as Gs");
	return failures != 0;
}
