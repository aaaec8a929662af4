/* Four threads, each blocked in a different wait: a mutex, a condition
 * variable, a read on an empty pipe and a sleep.  Prints "ready" once all
 * four are parked (under the shim, the runtime's own counters say so, so
 * the tests do not depend on timing), then waits to be signalled; the
 * tests (check-dump, check-gdb) send SIGQUIT or attach gdb.  Built with
 * -rdynamic and frame pointers so that every caller's name resolves.
 * With an argument N, N threads more wait on the condition variable too
 * (check-dump: a dump of more threads than it shows one by one). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gmpshim.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int pipefd[2];

__attribute__((noinline)) void *blocked_in_mutex(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

__attribute__((noinline)) void *blocked_in_cond(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cmu);
	for (;;)
		pthread_cond_wait(&cv, &cmu);
	return NULL;
}

__attribute__((noinline)) void *blocked_in_read(void *arg)
{
	(void)arg;
	char c;
	if (read(pipefd[0], &c, 1) < 0)
		perror("read");
	return NULL;
}

/* An absolute CLOCK_REALTIME sleep, which always parks: a relative one by
 * a thread with nothing else queued on its P may be a kernel wait, which
 * a dump shows as a system call (docs/design.md, Event loops). */
__attribute__((noinline)) void *blocked_in_sleep(void *arg)
{
	(void)arg;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 1000;
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	return NULL;
}

__attribute__((noinline)) static void start(void *(*fn)(void *))
{
	pthread_t t;
	if (pthread_create(&t, NULL, fn, NULL) != 0)
		abort();
}

int main(int argc, char **argv)
{
	long extra = argc > 1 ? atol(argv[1]) : 0;
	if (pipe(pipefd) != 0)
		return 1;
	pthread_mutex_lock(&mu);
	start(blocked_in_mutex);
	start(blocked_in_cond);
	start(blocked_in_read);
	start(blocked_in_sleep);
	for (long i = 0; i < extra; i++)
		start(blocked_in_cond);
	/* Each reason parked once more than it resumed: its thread waits. */
	const char *reasons[] = { "mutex lock", "cond wait", "IO wait (read)", "sleep" };
	struct gmpshim_stats st;
	for (int tries = 0; gmpshim_stats(&st) == 0 && tries < 30000; tries++) {
		int parked = 0;
		for (int r = 0; r < 4; r++)
			for (int i = 1; i < GMPSHIM_NWAIT; i++) {
				const char *n = gmpshim_wait_reason(i);
				if (n && strcmp(n, reasons[r]) == 0 &&
				    st.park[i] > st.unpark[i] + (r == 1 ? (uint64_t)extra : 0))
					parked++;
			}
		if (parked == 4)
			break;
		usleep(1000);
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
