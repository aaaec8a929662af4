/* A thread that wakes while every CPU is taken by threads that never
 * block: the kernel lets it preempt one of them soon, and so must the
 * runtime (sysmon's wake-up preemption cuts a running G's slice short),
 * rather than leave it queued until a whole slice ends.  Main sleeps
 * ROUNDS times while as many spinners as there are CPUs (Ps) run. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <time.h>

#include "check.h"

#define MAXSPIN 64
#define ROUNDS 50

static volatile int stop;
static volatile unsigned long progress[MAXSPIN];

static void *spin(void *arg)
{
	volatile unsigned long *p = arg;
	while (!stop)
		(*p)++;
	return NULL;
}

static int cpus(void)
{
	struct gmpshim_stats st;
	if (gmpshim_stats(&st) == 0)
		return (int)st.gomaxprocs;
	cpu_set_t set;
	return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

int main(void)
{
	int n = cpus();
	if (n > MAXSPIN)
		n = MAXSPIN;
	pthread_t t[MAXSPIN];
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, spin, (void *)&progress[i]);
	int slept = 0;
	for (int r = 0; r < ROUNDS; r++)
		slept += nanosleep(&(struct timespec){ 0, 100000 }, NULL) == 0;
	stop = 1;
	int ran = 1;
	for (int i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		ran &= progress[i] > 0;
	}
	CHECK(slept == ROUNDS, "main slept and woke 50 times while every CPU spun");
	CHECK(ran, "every spinner ran");
	int early = 1, stopped = 1;
	struct gmpshim_stats st;
	if (under_shim()) {
		int got = gmpshim_stats(&st) == 0;
		early = got && st.size > offsetof(struct gmpshim_stats, wake_preemptions) && st.wake_preemptions > 0;
		/* sysmon keeps its looks exact only while its requests stop
		 * threads in their own code, as they stop these spinners. */
		stopped = got && st.size > offsetof(struct gmpshim_stats, async_preemptions) &&
			  st.async_preemptions > 0;
	}
	CHECK(early, "a spinner gave way to main early (under the shim, by its count)");
	CHECK(stopped, "the spinners were stopped in their own code (under the shim, by its count)");
	return failures != 0;
}
