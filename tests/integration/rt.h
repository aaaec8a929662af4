/* Shared by the realtime-priority programs (rt_*.c).  The same scene
 * natively and under the shim: the main thread runs SCHED_FIFO 50, above
 * every thread it makes, and the test threads share one CPU.  Natively
 * the process is pinned to one CPU; under the shim (affinities are kept,
 * not acted upon) every P but one is taken by a SCHED_FIFO 40 thread that
 * spins until the end, so the threads under test share the last P, as
 * they share the CPU natively.  Where the kernel refuses SCHED_FIFO the
 * program says why and exits 77, which run-both and meson report as a
 * skip. */
#ifndef GMP_TEST_RT_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#define GMP_TEST_RT_H

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define RT_MAIN_PRIO 50
#define RT_BLOCKER_PRIO 40

static pthread_t rt_blockers[64];
static int rt_nblockers;
static volatile int rt_stop;
/* Kernel threads the process had before it made any (natively): none
 * under NPTL, the emulator's own under qemu-user (its RCU thread, asleep
 * for good), which must not pass for a thread of the test's gone to sleep. */
static int rt_foreign[8];
static int rt_nforeign;

static __attribute__((unused)) int rt_tasks(int *tids, int max)
{
	int n = 0;
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	while (dir && (e = readdir(dir)) && n < max) {
		int tid = atoi(e->d_name);
		if (tid > 0 && tid != (int)getpid())
			tids[n++] = tid;
	}
	if (dir)
		closedir(dir);
	return n;
}

static __attribute__((unused)) inline long rt_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* A bounded spin: never longer than 20 s, whatever happens. */
static __attribute__((unused)) void *rt_blocker(void *arg)
{
	(void)arg;
	long end = rt_now_ms() + 20000;
	while (!rt_stop && rt_now_ms() < end)
		;
	return NULL;
}

static __attribute__((unused)) int rt_create(pthread_t *t, void *(*fn)(void *), void *arg, int policy, int prio)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, policy);
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_setschedparam(&a, &sp);
	int err = pthread_create(t, &a, fn, arg);
	pthread_attr_destroy(&a);
	if (err) {
		fprintf(stderr, "pthread_create(policy %d, prio %d): %s\n", policy, prio, strerror(err));
		exit(1);
	}
	return 0;
}

/* Skips (exit 77) with the reason when the kernel refuses realtime. */
static __attribute__((unused)) void rt_require(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	if (sched_setscheduler(0, SCHED_FIFO, &sp) != 0) {
		fprintf(stderr, "SKIP: the kernel refuses SCHED_FIFO to this process (%s): "
				"run as root, or with CAP_SYS_NICE or an RLIMIT_RTPRIO of 50\n",
			strerror(errno));
		exit(77);
	}
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
}

static __attribute__((unused)) void rt_setup(void)
{
	rt_require();
	if (!under_shim()) {
		rt_nforeign = rt_tasks(rt_foreign, 8);
		cpu_set_t set, one;
		sched_getaffinity(0, sizeof set, &set);
		CPU_ZERO(&one);
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (CPU_ISSET(c, &set)) {
				CPU_SET(c, &one);
				break;
			}
		}
		sched_setaffinity(0, sizeof one, &one); /* threads inherit it */
	}
	struct sched_param sp = { .sched_priority = RT_MAIN_PRIO };
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	struct gmpshim_stats st;
	if (under_shim() && gmpshim_stats(&st) == 0) {
		rt_nblockers = (int)st.gomaxprocs - 1;
		if (rt_nblockers > 64)
			rt_nblockers = 64;
		for (int i = 0; i < rt_nblockers; i++)
			rt_create(&rt_blockers[i], rt_blocker, NULL, SCHED_FIFO, RT_BLOCKER_PRIO);
	}
}

static __attribute__((unused)) void rt_teardown(void)
{
	rt_stop = 1;
	for (int i = 0; i < rt_nblockers; i++)
		pthread_join(rt_blockers[i], NULL);
}

/* Threads of this process asleep in the kernel right now (natively), or
 * Gs parked (under the shim: parks minus resumptions), main excluded. */
static __attribute__((unused)) int rt_parked(void)
{
	if (under_shim()) {
		struct gmpshim_stats st;
		if (gmpshim_stats(&st) != 0)
			return -1;
		long n = 0;
		for (int i = 0; i < GMPSHIM_NWAIT; i++)
			n += (long)(st.park[i] - st.unpark[i]);
		return (int)n;
	}
	static int tids[4096];
	int n = 0, nt = rt_tasks(tids, 4096);
	for (int i = 0; i < nt; i++) {
		int foreign = 0;
		for (int j = 0; j < rt_nforeign; j++)
			foreign |= tids[i] == rt_foreign[j];
		char path[64], buf[256];
		snprintf(path, sizeof path, "/proc/self/task/%d/stat", tids[i]);
		FILE *f = foreign ? NULL : fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = 0;
		char *p = strrchr(buf, ')');
		if (p && p[1] == ' ' && (p[2] == 'S' || p[2] == 'D'))
			n++;
	}
	return n;
}

/* Lets the threads run (main sleeps) until n of them are asleep. */
static __attribute__((unused)) int rt_wait_parked(int n)
{
	for (int i = 0; i < 10000; i++) {
		if (rt_parked() >= n)
			return 1;
		usleep(1000);
	}
	fprintf(stderr, "only %d threads ever went to sleep, want %d\n", rt_parked(), n);
	return 0;
}

/* The order threads did something in. */
static int rt_log[64];
static int rt_nlog;

static __attribute__((unused)) void rt_note(int id)
{
	/* A spinlock, not a mutex: taking a mutex would itself be a wake-up
	 * order under test. */
	static volatile int busy;
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		;
	rt_log[rt_nlog++ % 64] = id;
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* Waits (main sleeping) until the log has n entries. */
static __attribute__((unused)) int rt_wait_log(int n)
{
	for (int i = 0; i < 10000; i++) {
		if (__atomic_load_n(&rt_nlog, __ATOMIC_ACQUIRE) >= n)
			return 1;
		usleep(1000);
	}
	return 0;
}

/* "20 10 5" */
static __attribute__((unused)) const char *rt_order(int from, int n)
{
	static char buf[256];
	buf[0] = 0;
	for (int i = from; i < from + n && i < 64; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i > from ? " " : "", rt_log[i]);
	return buf;
}

#endif
