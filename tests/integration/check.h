/* Shared by the integration programs: a named check printed as ok or
 * FAILED (deterministic output for run-both), and deadlines. */
#ifndef GMP_TEST_CHECK_H
#define GMP_TEST_CHECK_H

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Kernel threads of this process right now. */
static inline int kernel_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Burns CPU without a single call until *flag is set: a thread that only
 * preemption can take off its CPU. */
static inline void spin_until(volatile int *flag)
{
	while (!*flag)
		;
}

/* True when run-both runs us under the shim. */
static inline int under_shim(void)
{
	const char *mode = getenv("GMP_TEST_MODE");
	return mode && strcmp(mode, "shim") == 0;
}

#endif
