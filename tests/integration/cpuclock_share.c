/* Per-thread CPU clocks add up: threads doing equal work read equal CPU
 * times, a thread asleep in a blocking call or parked reads next to none,
 * and all of them together account for the process's CPU time (the
 * kernel's exact count) but for the runtime's own.  Under the shim many
 * threads share one kernel thread and a switch reads no CPU clock: the
 * kernel thread's CPU time is shared among the threads it ran by how long
 * each ran (shim/cpuclock.c). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define BURNERS 3
#define UNITS 300

static int64_t ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static volatile uint64_t sink;

/* About a millisecond of CPU work with no calls. */
static void unit(void)
{
	uint64_t x = sink | 1;
	for (int i = 0; i < 400000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
}

static int64_t burned[BURNERS], mixed_cpu, blocked_cpu;

static void *burner(void *arg)
{
	long i = (long)arg;
	int64_t t0 = ns(CLOCK_THREAD_CPUTIME_ID);
	for (int u = 0; u < UNITS; u++)
		unit();
	burned[i] = ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	return NULL;
}

/* Half the burners' work, in slices between short sleeps. */
static void *mixed(void *arg)
{
	(void)arg;
	int64_t t0 = ns(CLOCK_THREAD_CPUTIME_ID);
	for (int u = 0; u < UNITS / 2; u++) {
		unit();
		if (u % 10 == 0)
			usleep(2000);
	}
	mixed_cpu = ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	return NULL;
}

/* 300 ms asleep in wait4, a call that blocks its kernel thread. */
static void *blocked(void *arg)
{
	(void)arg;
	int64_t t0 = ns(CLOCK_THREAD_CPUTIME_ID);
	pid_t child = fork();
	if (child == 0) {
		usleep(300000);
		_exit(0);
	}
	int st;
	waitpid(child, &st, 0);
	blocked_cpu = ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	return NULL;
}

int main(void)
{
	int64_t p0 = ns(CLOCK_PROCESS_CPUTIME_ID), m0 = ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_t t[BURNERS + 2];
	for (long i = 0; i < BURNERS; i++)
		pthread_create(&t[i], NULL, burner, (void *)i);
	pthread_create(&t[BURNERS], NULL, mixed, NULL);
	pthread_create(&t[BURNERS + 1], NULL, blocked, NULL);
	for (int i = 0; i < BURNERS + 2; i++)
		pthread_join(t[i], NULL);
	int64_t process = ns(CLOCK_PROCESS_CPUTIME_ID) - p0, mine = ns(CLOCK_THREAD_CPUTIME_ID) - m0;

	int64_t sum = mixed_cpu + blocked_cpu + mine, lo = burned[0], hi = burned[0];
	for (int i = 0; i < BURNERS; i++) {
		sum += burned[i];
		lo = burned[i] < lo ? burned[i] : lo;
		hi = burned[i] > hi ? burned[i] : hi;
	}
	int64_t mean = (burned[0] + burned[1] + burned[2]) / BURNERS;
	CHECK(lo > 0 && hi - lo < mean / 10, "threads doing equal work read equal CPU times (10%)");
	CHECK(mixed_cpu > mean * 4 / 10 && mixed_cpu < mean * 6 / 10,
	      "a thread doing half the work between sleeps reads half of it");
	CHECK(blocked_cpu >= 0 && blocked_cpu < 20000000, "a thread asleep 300 ms in wait4 reads under 20 ms");
	CHECK(sum <= process + process / 100 + 1000000, "the threads' clocks add up to no more than the process's");
	/* Under the shim the process also runs sysmon (2-4% of a CPU here
	 * while a P runs one thread for long: a /proc read per ms). */
	CHECK(sum >= process - process / 10, "... and to at least 90% of it");
	return failures != 0;
}
