/* Sleeps that end early or late for the program's reasons, whichever way
 * the shim makes them: a G with nothing else queued on its P sleeps in
 * the kernel, its P given up (shim/syscall.c gmp_kernelwait_sleep), and
 * any other sleep parks on a timer.  As under NPTL:
 * - a handler ends nanosleep with EINTR and the time left, with SA_RESTART
 *   too (signal(7): never restarted); an absolute clock_nanosleep ends
 *   with EINTR and leaves rem alone;
 * - pthread_cancel ends a sleep (a cancellation point);
 * - while one thread sleeps long, the others run and their short sleeps
 *   and timed waits end on time (with one P: the sleeper's P is free);
 * - a sleep gives the CPU up even when it is over before it begins: a
 *   thread looping on 1 ns sleeps lets a thread whose 1 ms sleep ended run
 *   (under the shim such sleeps, refused the kernel, ended without
 *   parking, and at one P the other thread's 1 ms sleeps took 3-4.5 s
 *   (median), until sysmon's signal happened to land in the looping
 *   thread's own code);
 * - a sleep never ends early. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static volatile sig_atomic_t hits;
static volatile int result, rem_ok, done;

static void on_usr1(int sig)
{
	(void)sig;
	hits++;
}

static void handle(int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	sigaction(SIGUSR1, &sa, NULL);
}

static long ns_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

static void ms(long n)
{
	struct timespec ts = { n / 1000, n % 1000 * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void *relative_sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = { 20, 0 }, rem = { 0, 0 };
	int r = nanosleep(&ts, &rem);
	result = r < 0 ? errno : 0;
	rem_ok = rem.tv_sec < 20 && (rem.tv_sec > 0 || rem.tv_nsec > 0);
	done = 1;
	return NULL;
}

static void *absolute_sleeper(void *arg)
{
	(void)arg;
	struct timespec until = deadline_in(CLOCK_MONOTONIC, 20000000000L), rem = { 7, 7 };
	result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, &rem);
	rem_ok = rem.tv_sec == 7 && rem.tv_nsec == 7;
	done = 1;
	return NULL;
}

/* Kicks the sleeper with SIGUSR1 until it is done: the first signal may
 * come before its sleep begins, and the handler then runs before it. */
static void interrupt(void *(*fn)(void *))
{
	hits = 0;
	done = 0;
	result = -1;
	rem_ok = 0;
	pthread_t t;
	pthread_create(&t, NULL, fn, NULL);
	kick_until_done(t, &done, SIGUSR1, 10);
}

static void *cancelled_sleeper(void *arg)
{
	(void)arg;
	for (;;)
		sleep(20);
	return NULL;
}

/* --- a loop of sleeps over before they begin --- */

static volatile int napstop;

/* Blocks a signal the others take: under the shim its sleeps cannot wait
 * in the kernel then (shim/gsignal.h, gmp_sigmask_may_wait), they park. */
static void *napper(void *arg)
{
	(void)arg;
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, NULL);
	struct timespec ts = { 0, 1 };
	while (!napstop)
		nanosleep(&ts, NULL);
	return NULL;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return x < y ? -1 : x > y;
}

/* How long a sleep of 1 ms lasts while the napper loops, median of 21. */
static long ms_sleep_beside_napper(void)
{
	pthread_t n;
	pthread_create(&n, NULL, napper, NULL);
	ms(10);
	long took[21];
	for (int i = 0; i < 21; i++) {
		struct timespec t0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ms(1);
		took[i] = ns_since(&t0);
	}
	napstop = 1;
	pthread_join(n, NULL);
	qsort(took, 21, sizeof took[0], cmp_long);
	return took[10];
}

/* --- one long sleep, others at work meanwhile --- */

static volatile int stop;
static volatile long spins;

static void *long_sleeper(void *arg)
{
	(void)arg;
	struct timespec ts = { 2, 0 };
	nanosleep(&ts, NULL);
	return NULL;
}

static void *worker(void *arg)
{
	(void)arg;
	while (!stop)
		spins++;
	return NULL;
}

static long short_sleeps_ns;

static void *short_sleeper(void *arg)
{
	(void)arg;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < 10; i++)
		ms(5);
	short_sleeps_ns = ns_since(&t0);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);

	handle(0);
	interrupt(relative_sleeper);
	CHECK(result == EINTR && rem_ok && hits > 0, "nanosleep, handler: EINTR and the time left");
	handle(SA_RESTART);
	interrupt(relative_sleeper);
	CHECK(result == EINTR && rem_ok && hits > 0, "nanosleep, SA_RESTART handler: EINTR all the same");
	interrupt(absolute_sleeper);
	CHECK(result == EINTR && rem_ok && hits > 0, "absolute clock_nanosleep: EINTR, rem untouched");

	pthread_t t;
	pthread_create(&t, NULL, cancelled_sleeper, NULL);
	ms(50);
	pthread_cancel(t);
	void *ret = NULL;
	pthread_join(t, &ret);
	CHECK(ret == PTHREAD_CANCELED, "pthread_cancel ends a sleep");

	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ms(30);
	CHECK(ns_since(&t0) >= 30000000L, "a 30 ms sleep lasts at least 30 ms");

	long nap_ms = ms_sleep_beside_napper();
	if (nap_ms >= 25000000L)
		fprintf(stderr, "a sleep of 1 ms took %.1f ms (median)\n", nap_ms / 1e6);
	CHECK(nap_ms < 25000000L, "a thread looping on 1 ns sleeps lets a thread whose sleep ended run");

	/* The long sleeper starts alone, so that it is the one with nothing
	 * else queued; the others come while it sleeps. */
	pthread_t ls, w, ss;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&ls, NULL, long_sleeper, NULL);
	ms(100);
	pthread_create(&w, NULL, worker, NULL);
	pthread_create(&ss, NULL, short_sleeper, NULL);
	pthread_join(ss, NULL);
	long at_short = ns_since(&t0);
	long spun = spins;
	ms(50);
	int worked = spins > spun;
	stop = 1;
	pthread_join(w, NULL);
	pthread_join(ls, NULL);
	long at_long = ns_since(&t0);
	CHECK(at_short < at_long - 500000000L && short_sleeps_ns >= 50000000L,
	      "short sleeps end on time while another thread sleeps 2 s");
	CHECK(worked, "a busy thread runs while another sleeps");
	CHECK(at_long >= 2000000000L, "the 2 s sleep lasts 2 s");

	/* Under the shim the sleeps above must include kernel sleeps, or
	 * this test exercised only the parked ones. */
	struct gmpshim_stats st;
	int ks = !under_shim() || (gmpshim_stats(&st) == 0 && st.kernel_sleeps > 0);
	CHECK(ks && made_as_gs(8), "the threads were Gs, some sleeping in the kernel");
	return failures != 0;
}
