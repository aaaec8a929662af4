/* Shared by the conformance programs.  Each program checks one assertion
 * of the POSIX threads specification and ends with exactly one line on
 * stdout: "PASS", "FAIL: <where and why>" or "UNSUPPORTED: <what>".
 * Exit status: 0 pass, 1 fail, 77 unsupported (only for options POSIX makes
 * optional and this system lacks).  The line names the failing source line,
 * never a time or an address, so a rerun prints the same thing. */
#ifndef CONFORM_H
#define CONFORM_H

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A run meant to be under the shim (tests/conformance/run sets
 * GMP_TEST_MODE=shim) proves it: whatever the assertion's outcome, no
 * gmpshim runtime in the process (asked as shim/include/gmpshim.h does) fails it. */
static inline void shim_present_or_fail(void)
{
	const char *mode = getenv("GMP_TEST_MODE");
	if (mode && strcmp(mode, "shim") == 0 && dlsym(RTLD_DEFAULT, "gmpshim_read_stats") == NULL) {
		printf("FAIL: GMP_TEST_MODE=shim but no gmpshim runtime in this process\n");
		fflush(stdout);
		_exit(1);
	}
}

static inline __attribute__((noreturn)) void pass(void)
{
	shim_present_or_fail();
	printf("PASS\n");
	fflush(stdout);
	_exit(0);
}

static inline __attribute__((noreturn)) void fail_at(int line, const char *what)
{
	shim_present_or_fail();
	printf("FAIL: line %d: %s\n", line, what);
	fflush(stdout);
	_exit(1);
}

static inline __attribute__((noreturn)) void unsupported(const char *what)
{
	shim_present_or_fail();
	printf("UNSUPPORTED: %s\n", what);
	fflush(stdout);
	_exit(77);
}

#define FAIL(what) fail_at(__LINE__, what)

/* The assertion itself, or a step that must work for the test to mean
 * anything; either way a false condition is a failure. */
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_at(__LINE__, #cond);                                                  \
	} while (0)

/* A pthread-style call (error number as result) must return want. */
#define EXPECT(call, want)                                                                         \
	do {                                                                                       \
		int r_ = (call), w_ = (want);                                                      \
		if (r_ != w_) {                                                                    \
			char b_[200];                                                              \
			snprintf(b_, sizeof b_, "%s returned %d (%s), wanted %d (%s)", #call, r_,  \
			         strerrorname_np(r_) ? strerrorname_np(r_) : "?", w_,              \
			         strerrorname_np(w_) ? strerrorname_np(w_) : "?");                 \
			fail_at(__LINE__, b_);                                                     \
		}                                                                                  \
	} while (0)

#define OK(call) EXPECT(call, 0)

/* A -1/errno style call must fail with err. */
#define EXPECT_ERRNO(call, err)                                                                    \
	do {                                                                                       \
		errno = 0;                                                                         \
		long r_ = (long)(call);                                                            \
		if (r_ != -1 || errno != (err)) {                                                  \
			char b_[200];                                                              \
			snprintf(b_, sizeof b_, "%s returned %ld errno %s, wanted -1 %s", #call,   \
			         r_, strerrorname_np(errno) ? strerrorname_np(errno) : "0",         \
			         strerrorname_np(err));                                             \
			fail_at(__LINE__, b_);                                                     \
		}                                                                                  \
	} while (0)

static inline pthread_t spawn(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	int r = pthread_create(&t, NULL, fn, arg);
	if (r != 0)
		fail_at(__LINE__, "pthread_create");
	return t;
}

static inline void *join(pthread_t t)
{
	void *v;
	if (pthread_join(t, &v) != 0)
		fail_at(__LINE__, "pthread_join");
	return v;
}

/* An absolute time ms milliseconds from now on clk (negative: in the past). */
static inline struct timespec abs_ms(clockid_t clk, long ms)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec + ms * 1000000LL;
	ts.tv_sec = ns / 1000000000LL;
	ts.tv_nsec = ns % 1000000000LL;
	return ts;
}

/* Milliseconds elapsed on clk since *from. */
static inline long since_ms(clockid_t clk, const struct timespec *from)
{
	struct timespec now;
	clock_gettime(clk, &now);
	return (now.tv_sec - from->tv_sec) * 1000L + (now.tv_nsec - from->tv_nsec) / 1000000L;
}

/* Gives other threads a chance to run for about ms milliseconds.  Used only
 * where an assertion says something must NOT happen (a blocked thread must
 * stay blocked): a correct implementation passes whatever the delay. */
static inline void settle(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* A semaphore used as a plain event between threads. */
static inline void sem_wait_ok(sem_t *s)
{
	while (sem_wait(s) != 0)
		if (errno != EINTR)
			fail_at(__LINE__, "sem_wait");
}

#endif
