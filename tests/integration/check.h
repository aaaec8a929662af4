/* Shared by the integration programs: a named check printed as ok or
 * FAILED (deterministic output for run-both), and deadlines. */
#ifndef GMP_TEST_CHECK_H
#define GMP_TEST_CHECK_H

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "gmpshim.h"

static int failures __attribute__((unused));

#define CHECK(cond, what)                                                                          \
	do {                                                                                       \
		int ok_ = (cond);                                                                  \
		printf("%-60s %s\n", what, ok_ ? "ok" : "FAILED");                               \
		failures += !ok_;                                                                  \
	} while (0)

/* The time ns nanoseconds from now on clk, as an absolute timespec. */
static inline struct timespec deadline_in(clockid_t clk, long ns)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	ts.tv_nsec += ns % 1000000000L;
	ts.tv_sec += ns / 1000000000L + ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	return ts;
}

/* Kernel threads of this process right now: the program's, not those an
 * emulator running it adds to every process (GMP_TEST_EMULATOR_THREADS:
 * qemu-user runs one of its own, its RCU thread, which /proc/self/task
 * lists with the program's). */
static inline int kernel_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	const char *emu = getenv("GMP_TEST_EMULATOR_THREADS");
	return n - (emu ? atoi(emu) : 0);
}

/* The process's voluntary context switches so far, all its kernel threads
 * (the shim's too): its wake-ups. */
static inline long process_voluntary_switches(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_nvcsw;
}

/* The process's resident memory (VmRSS) in KiB, -1 if unreadable. */
static inline long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long kb = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* n threads count themselves in and wait until main, once all n are in
 * (muster_wait_all, which returns holding the lock), has looked at what
 * they hold and lets them go (muster_release). */
struct muster {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int in, go;
};
#define MUSTER_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 }

static inline void muster_arrive(struct muster *g, int n)
{
	pthread_mutex_lock(&g->mu);
	if (++g->in == n)
		pthread_cond_broadcast(&g->cv);
	while (!g->go)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

static inline void muster_wait_all(struct muster *g, int n)
{
	pthread_mutex_lock(&g->mu);
	while (g->in < n)
		pthread_cond_wait(&g->cv, &g->mu);
}

static inline void muster_release(struct muster *g)
{
	g->go = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

/* A fixed amount of CPU work, divided by GMP_TEST_WORK_SCALE (default 1):
 * under an emulator (tests/run-aarch64 sets 10) a chain of arithmetic that
 * takes a second natively takes minutes, and a tenth of it still spans
 * hundreds of time slices. */
static inline long test_work(long n)
{
	const char *s = getenv("GMP_TEST_WORK_SCALE");
	long d = s ? atol(s) : 1;
	return d > 1 ? n / d : n;
}

/* Sends sig to t every step_ms until *done, then joins t: the wait the
 * signal is to interrupt may not have begun when the first one comes. */
static inline void kick_until_done(pthread_t t, volatile int *done, int sig, long step_ms)
{
	struct timespec step = { step_ms / 1000, step_ms % 1000 * 1000000L };
	for (int i = 0; !*done && i < 2000; i++) {
		struct timespec left = step;
		while (nanosleep(&left, &left) != 0)
			;
		if (!*done)
			pthread_kill(t, sig);
	}
	pthread_join(t, NULL);
}

/* Sleeps us microseconds in all: a handler's EINTR does not cut it short. */
static inline void pause_us(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Installs fn as sig's SA_SIGINFO handler, with flags and an empty mask. */
static inline void handle_info(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigaction(sig, &sa, NULL);
}

/* Natively: is thread tid of this process blocked in a system call now
 * ("running" otherwise)?  Under qemu-user the file names the emulator's
 * calls: a test waits a few ms more after it says yes. */
static inline int thread_in_syscall(int tid)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	long n = -1;
	if (!fgets(buf, sizeof buf, f) || sscanf(buf, "%ld", &n) != 1)
		n = -1;
	fclose(f);
	return n >= 0;
}

/* Under the shim, how many times threads have parked for the wait reason
 * of that name (gmpshim_wait_reason's); 0 without the runtime. */
static inline uint64_t shim_parks(const char *reason)
{
	struct gmpshim_stats st;
	if (gmpshim_stats(&st) != 0)
		return 0;
	for (int i = 0; i < GMPSHIM_NWAIT; i++) {
		const char *n = gmpshim_wait_reason(i);
		if (n && strcmp(n, reason) == 0)
			return st.park[i];
	}
	return 0;
}

/* Burns CPU without a single call until *flag is set: a thread that only
 * preemption can take off its CPU. */
static inline void spin_until(volatile int *flag)
{
	while (!*flag)
		;
}

/* True when run-both runs us under the shim: what the test expects.
 * Whether the shim really is there is asked of the runtime below. */
static inline int under_shim(void)
{
	const char *mode = getenv("GMP_TEST_MODE");
	return mode && strcmp(mode, "shim") == 0;
}

/* The most kernel threads a process under the shim may have while every
 * one of its threads is parked: an M per P, one more M waiting in the
 * netpoller, one that took a P handed off from an M blocked in a system
 * call, one more for a second M asleep in the kernel for a program's sleep
 * (shim/syscall.c lets two sleep there at once, each giving up its P;
 * seen as 9 threads at 2 Ps on aarch64, about 1 run in 50 of sleepers),
 * sysmon and the template thread (Ms are never freed, so the Ms a
 * hand-off once needed stay), and one M started while another was on its
 * way to idle (startm finds no idle M between findrunnable's pidleput and
 * stopm's mput, as in Go: seen in about 1 run in 12 of a 50-thread
 * server, before this round's changes too), and sysmon's /proc reader
 * (shim/procfs.c).  README quotes it at 2 Ps: 9. */
#define SHIM_THREADS_OVER_PROCS 7

/* Run where every thread the program made is parked or sleeping, with kt
 * the kernel_threads() counted there: natively the program's own threads
 * are kernel threads (at least native_min); under the shim the runtime
 * must be loaded (asked through gmpshim.h), every kernel thread must be
 * one of its OS threads, and they must be within the bound above for the
 * Ps it runs with.  Says why on stderr when it fails. */
static inline int threads_are_gs(int kt, int native_min)
{
	if (!under_shim()) {
		if (kt < native_min)
			fprintf(stderr, "native run: %d kernel threads, want at least %d\n", kt, native_min);
		return kt >= native_min;
	}
	struct gmpshim_stats st;
	if (gmpshim_stats(&st) != 0) {
		fprintf(stderr, "no gmpshim runtime in this process\n");
		return 0;
	}
	long bound = (long)st.gomaxprocs + SHIM_THREADS_OVER_PROCS;
	if (kt > (long)st.os_threads || kt > bound) {
		fprintf(stderr, "%d kernel threads; the runtime runs on %llu, bound %ld for %u Ps\n", kt,
			(unsigned long long)st.os_threads, bound, st.gomaxprocs);
		return 0;
	}
	return 1;
}

/* Under the shim, at least n threads were made as Gs so far (asked of the
 * runtime); natively, true. */
static inline int made_as_gs(unsigned n)
{
	if (!under_shim())
		return 1;
	struct gmpshim_stats st;
	if (gmpshim_stats(&st) != 0 || st.threads_created < n) {
		fprintf(stderr, "want %u threads made as Gs, the runtime says %lld\n", n,
			gmpshim_stats(&st) != 0 ? -1LL : (long long)st.threads_created);
		return 0;
	}
	return 1;
}

/* Under the shim, the runtime preempted a running G at least once;
 * natively, true. */
static inline int preempted(void)
{
	if (!under_shim())
		return 1;
	struct gmpshim_stats st;
	return gmpshim_stats(&st) == 0 && st.preemptions > 0;
}

#endif
