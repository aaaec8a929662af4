/* A thread CPU clock read for the first time at the end of the work it
 * measures (a per-thread CPU report at exit, a monitor that samples the
 * threads now and then): it must show the time the thread ran before,
 * as the kernel's clock counts from the thread's creation.  Under the shim
 * a clock once counted only from the program's first read of one.  And
 * getrusage(RUSAGE_THREAD), which redis reports its main thread's CPU
 * with, must give each thread its own time, not that of its kernel thread
 * (which at one P ran both).  A child the thread forks then is a new
 * thread: its clock starts again.
 *
 * A thread computes for 200 ms of wall time, handing a token to and from a
 * second thread every few ms (switches under the shim, as in a server),
 * while no thread CPU clock has been read yet; only then are the clocks
 * read: the computing thread's own, through pthread_getcpuclockid from
 * main, and main's.  The process CPU clock, which is the kernel's under
 * the shim too, bounds what the thread can have used. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define WORK_NS 200000000LL

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int token, done;
static volatile uint64_t sink;
static int64_t own_read, own_rusage, process_used;
static int child_clock_small;
static pthread_barrier_t bar;

static int64_t rusage_thread(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return -1;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

static int64_t ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pass(int to)
{
	pthread_mutex_lock(&mu);
	token = to;
	pthread_cond_broadcast(&cv);
	while (token == to && !done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void *partner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	while (!done) {
		if (token == 1) {
			token = 0;
			pthread_cond_broadcast(&cv);
		}
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	int64_t p0 = ns(CLOCK_PROCESS_CPUTIME_ID), start = ns(CLOCK_MONOTONIC);
	uint64_t x = 88172645463325252ULL;
	while (ns(CLOCK_MONOTONIC) - start < WORK_NS) {
		for (int i = 0; i < 200000; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		pass(1);
	}
	sink = x;
	process_used = ns(CLOCK_PROCESS_CPUTIME_ID) - p0;
	own_read = ns(CLOCK_THREAD_CPUTIME_ID); /* the process's first thread-clock read */
	own_rusage = rusage_thread();
	pid_t child = fork();
	if (child == 0)
		_exit(ns(CLOCK_THREAD_CPUTIME_ID) < WORK_NS / 4 ? 0 : 1);
	int status;
	child_clock_small = child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
			    WEXITSTATUS(status) == 0;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(void)
{
	pthread_barrier_init(&bar, NULL, 2);
	pthread_t w, p;
	pthread_create(&p, NULL, partner, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_barrier_wait(&bar);
	clockid_t wc;
	int64_t other_read = pthread_getcpuclockid(w, &wc) == 0 ? ns(wc) : -1;
	int64_t mine = ns(CLOCK_THREAD_CPUTIME_ID), mine_rusage = rusage_thread();
	pthread_barrier_wait(&bar);
	pthread_join(w, NULL);
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(p, NULL);
	fprintf(stderr,
		"cpuclock_first_read: worker %.1f ms (own read), %.1f ms (from main), %.1f ms (RUSAGE_THREAD), "
		"process %.1f ms, main %.1f ms (%.1f ms RUSAGE_THREAD)\n",
		own_read / 1e6, other_read / 1e6, own_rusage / 1e6, process_used / 1e6, mine / 1e6, mine_rusage / 1e6);
	/* Half of the process's CPU over the work: the partner's hand-offs and
	 * the runtime's own threads take some, a clock counted from the first
	 * read shows almost none. */
	CHECK(own_read >= process_used / 2 && own_read <= process_used + 5000000,
	      "first read of a thread's own clock: the time it ran before");
	CHECK(other_read >= own_read, "its clock read from another thread: no less");
	CHECK(mine >= 0 && mine < own_read, "main's clock: its own time, not the worker's");
	/* Microseconds, and read just after the clock: within a few ms. */
	CHECK(own_rusage >= own_read - 5000000 && own_rusage <= own_read + 5000000,
	      "RUSAGE_THREAD of the worker: its clock's time");
	CHECK(mine_rusage >= 0 && mine_rusage < own_read / 2, "RUSAGE_THREAD of main: its own time");
	CHECK(child_clock_small, "a child the worker forks: its clock starts again");
	return failures != 0;
}
