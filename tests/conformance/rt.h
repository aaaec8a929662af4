/* Shared by the realtime-scheduling assertions (POSIX's Process
 * Scheduling, TPS/TPP/TPI options).  They hold on one CPU: natively the
 * process is pinned to one; under the shim (GMP_TEST_MODE=shim), whose
 * threads share GOMAXPROCS Ps and ignore affinities, every P but one is
 * taken by a SCHED_FIFO 40 thread spinning until the end (20 s at most).
 * main runs SCHED_FIFO 50, above every thread under test.  A kernel that
 * refuses SCHED_FIFO makes the case UNSUPPORTED, saying so. */
#ifndef CONFORM_RT_H
#define CONFORM_RT_H

#include "conform.h"

static pthread_t rt_blk[64];
static int rt_nblk;
static volatile int rt_stop;

static inline long rt_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

static void *rt_spinner(void *a)
{
	long end = rt_ms() + 20000;
	while (!rt_stop && rt_ms() < end)
		;
	return a;
}

static inline pthread_t rt_spawn(void *(*fn)(void *), void *arg, int policy, int prio)
{
	pthread_attr_t a;
	pthread_t t;
	struct sched_param sp = { .sched_priority = prio };
	OK(pthread_attr_init(&a));
	OK(pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED));
	OK(pthread_attr_setschedpolicy(&a, policy));
	OK(pthread_attr_setschedparam(&a, &sp));
	OK(pthread_create(&t, &a, fn, arg));
	pthread_attr_destroy(&a);
	return t;
}

static inline void rt_require(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		unsupported("the kernel refuses SCHED_FIFO to this process (not root, no CAP_SYS_NICE or RLIMIT_RTPRIO)");
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
}

static inline void rt_setup(void)
{
	rt_require();
	const char *mode = getenv("GMP_TEST_MODE");
	cpu_set_t set;
	sched_getaffinity(0, sizeof set, &set);
	if (mode && strcmp(mode, "shim") == 0) {
		/* The Ps the shim runs with: GMP_MAXPROCS when it is a number,
		 * else the CPUs the process may use. */
		const char *p = getenv("GMP_MAXPROCS");
		int procs = p && atoi(p) > 0 ? atoi(p) : CPU_COUNT(&set);
		rt_nblk = procs - 1 > 64 ? 64 : procs - 1;
	} else {
		cpu_set_t one;
		CPU_ZERO(&one);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set)) {
				CPU_SET(c, &one);
				break;
			}
		CHECK(sched_setaffinity(0, sizeof one, &one) == 0);
	}
	struct sched_param sp = { .sched_priority = 50 };
	OK(pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp));
	for (int i = 0; i < rt_nblk; i++)
		rt_blk[i] = rt_spawn(rt_spinner, NULL, SCHED_FIFO, 40);
}

static inline void rt_teardown(void)
{
	rt_stop = 1;
	for (int i = 0; i < rt_nblk; i++)
		join(rt_blk[i]);
}

/* What the threads did, in order. */
static int rt_log[16];
static int rt_n;

static inline void rt_note(int v)
{
	static volatile int busy;
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		;
	rt_log[rt_n++ & 15] = v;
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* Lets the lower threads run (main sleeps) until the log has n entries. */
static inline void rt_wait_log(int n)
{
	for (int i = 0; i < 10000 && __atomic_load_n(&rt_n, __ATOMIC_ACQUIRE) < n; i++)
		settle(1);
}

/* The log from entry from on must be want[0..n). */
static inline int rt_logged(int from, const int *want, int n)
{
	for (int i = 0; i < n; i++)
		if (rt_log[from + i] != want[i])
			return 0;
	return 1;
}

#endif
