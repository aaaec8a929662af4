/* Per-thread CPU clocks: CLOCK_THREAD_CPUTIME_ID and pthread_getcpuclockid
 * count the thread's own CPU time, not that of others sharing its kernel
 * thread (under the shim, with one P, they all share one). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int64_t ns(clockid_t clk)
{
	struct timespec ts;
	if (clock_gettime(clk, &ts) != 0)
		return -errno;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static pthread_barrier_t bar;
static volatile int sink;

/* Burns 100ms of its own CPU time, then waits. */
static void *burner(void *arg)
{
	(void)arg;
	int64_t start = ns(CLOCK_THREAD_CPUTIME_ID);
	while (ns(CLOCK_THREAD_CPUTIME_ID) - start < 100000000)
		for (int i = 0; i < 10000; i++)
			sink += i;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(void)
{
	pthread_barrier_init(&bar, NULL, 3);
	int64_t main0 = ns(CLOCK_THREAD_CPUTIME_ID);
	pthread_t b, s;
	pthread_create(&b, NULL, burner, NULL);
	pthread_create(&s, NULL, sleeper, NULL);
	clockid_t bc, sc, mc;
	CHECK(pthread_getcpuclockid(b, &bc) == 0 && pthread_getcpuclockid(s, &sc) == 0, "pthread_getcpuclockid");
	CHECK(pthread_getcpuclockid(pthread_self(), &mc) == 0, "pthread_getcpuclockid(self)");
	pthread_barrier_wait(&bar); /* the burner is done burning */
	int64_t burned = ns(bc), slept = ns(sc), mine = ns(CLOCK_THREAD_CPUTIME_ID) - main0;
	CHECK(burned >= 100000000, "the busy thread's clock shows its 100ms");
	CHECK(slept >= 0 && slept < 50000000, "the waiting thread's clock stays small");
	CHECK(mine >= 0 && mine < 50000000, "main's CLOCK_THREAD_CPUTIME_ID does not count the busy thread");
	CHECK(ns(mc) >= ns(CLOCK_THREAD_CPUTIME_ID) - 50000000, "main's own clock ID agrees with CLOCK_THREAD_CPUTIME_ID");
	struct timespec res;
	CHECK(clock_getres(bc, &res) == 0, "clock_getres of a thread's clock");
	struct timespec d = { 0, 1000 };
	CHECK(clock_nanosleep(CLOCK_THREAD_CPUTIME_ID, 0, &d, NULL) == EINVAL,
	      "clock_nanosleep on CLOCK_THREAD_CPUTIME_ID: EINVAL");
	int64_t before = ns(bc);
	pthread_barrier_wait(&bar);
	/* Exited, not yet joined: the clock is gone with the thread. */
	int pol;
	struct sched_param sp;
	while (pthread_getschedparam(b, &pol, &sp) == 0)
		usleep(1000);
	CHECK(before >= burned, "a thread's clock does not go back");
	/* Natively the kernel clears the TID a little before the task is gone
	 * and its clock with it: give it up to 10 s. */
	for (int i = 0; i < 10000 && ns(bc) != -EINVAL; i++)
		usleep(1000);
	CHECK(ns(bc) == -EINVAL, "clock_gettime on an exited thread's clock: EINVAL");
	clockid_t gone;
	CHECK(pthread_getcpuclockid(b, &gone) == ESRCH, "pthread_getcpuclockid of an exited thread: ESRCH");
	pthread_join(b, NULL);
	pthread_join(s, NULL);
	return failures != 0;
}
