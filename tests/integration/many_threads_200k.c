/* 200,000 threads with default attributes alive at once under the shim:
 * some sleeping, most parked on one condition variable, some parked
 * reading a socketpair shared by 20 readers; all released, all joined.
 * Past vm.max_map_count on a kernel with MADV_GUARD_INSTALL (stack.c
 * carves the stacks from arenas), and a check that the registry, the wait
 * queues, the timers and the free lists stay O(1) a thread: the shim run
 * takes 10-30 s here, where a quadratic step at this count takes minutes.
 *
 * Natively each thread is a kernel task, and the count is what NPTL can
 * have here without taking the machine's PIDs from everyone else; a
 * creation refused with EAGAIN there ends the creating early, which
 * changes nothing printed. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define SHIM_THREADS 200000
#define NATIVE_MOST 10000
#define READERS_PER_PAIR 20

enum kind { SLEEPER, WAITER, READER };

static long nthreads;
static int (*pairs)[2];
static long npairs;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int released;
static long started, done[3], badbyte;

/* Three in ten sleep, one in ten reads, the rest wait on the condvar. */
static enum kind kind_of(long i)
{
	long r = i % 10;
	return r < 3 ? SLEEPER : r == 9 ? READER : WAITER;
}

static void *run(void *arg)
{
	long i = (long)arg;
	enum kind k = kind_of(i);
	__atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
	if (k == SLEEPER) {
		/* Deadlines spread over a second: the timers keep firing in an
		 * order unrelated to creation while everyone else is parked. */
		struct timespec ts = { 1, (i % 1000) * 1000000L };
		while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE))
			nanosleep(&ts, NULL);
	} else if (k == WAITER) {
		pthread_mutex_lock(&mu);
		while (!released)
			pthread_cond_wait(&cv, &mu);
		pthread_mutex_unlock(&mu);
	} else {
		char c;
		if (read(pairs[(i / 10) % npairs][0], &c, 1) != 1 || c != 'x')
			__atomic_add_fetch(&badbyte, 1, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&done[k], 1, __ATOMIC_RELAXED);
	return (void *)(i + 1);
}

/* threads_are_gs with more room: at this count, with every M busy
 * faulting in fresh pages, the window between an M giving up its P and
 * joining the idle list (where wakep finds no idle M and starts a new
 * one, as Go's does) is wide enough that an M more than check.h's bound
 * was seen in one run in three. */
#define SHIM_MOST_KERNEL_THREADS 16

static int few_kernel_threads(int kt, long made)
{
	if (!under_shim())
		return threads_are_gs(kt, (int)made);
	struct gmpshim_stats st;
	if (gmpshim_stats(&st) != 0 || kt > (long)st.os_threads || kt > SHIM_MOST_KERNEL_THREADS) {
		fprintf(stderr, "%d kernel threads under the shim, want at most %d\n", kt, SHIM_MOST_KERNEL_THREADS);
		return 0;
	}
	return 1;
}

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;
	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static long mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Natively: a quarter of the smallest of the machine's task limits (PIDs
 * are shared with every other process) and half vm.max_map_count (each
 * NPTL stack is two mappings), at most NATIVE_MOST. */
static long native_count(void)
{
	long n = NATIVE_MOST;
	long lim[3] = { read_long("/proc/sys/kernel/pid_max"), read_long("/proc/sys/kernel/threads-max"),
			read_long("/proc/sys/vm/max_map_count") / 2 };
	struct rlimit rl;
	for (int j = 0; j < 3; j++)
		if (lim[j] > 0 && lim[j] / 4 < n)
			n = lim[j] / 4;
	if (getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur / 4 < n)
		n = (long)rl.rlim_cur / 4;
	return n;
}

int main(void)
{
	nthreads = under_shim() ? SHIM_THREADS : native_count();
	long readers = 0;
	for (long i = 0; i < nthreads; i++)
		readers += kind_of(i) == READER;
	npairs = (readers + READERS_PER_PAIR - 1) / READERS_PER_PAIR;
	pairs = calloc((size_t)npairs, sizeof *pairs);
	pthread_t *t = calloc((size_t)nthreads, sizeof *t);
	for (long p = 0; p < npairs; p++)
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[p]) != 0) {
			perror("socketpair");
			return 1;
		}

	long made = 0;
	int err = 0;
	while (made < nthreads && (err = pthread_create(&t[made], NULL, run, (void *)made)) == 0)
		made++;
	if (err)
		fprintf(stderr, "pthread_create: %s after %ld threads\n", strerror(err), made);
	/* NPTL may run out of tasks first; the shim must not. */
	CHECK(made == nthreads || (!under_shim() && err == EAGAIN && made > 0), "every thread created");

	while (__atomic_load_n(&started, __ATOMIC_RELAXED) < made)
		usleep(10000);
	usleep(200000); /* the last ones started are parked by now */
	CHECK(few_kernel_threads(kernel_threads(), made), "all parked: a task each natively, a few under the shim");
	CHECK(made_as_gs((unsigned)made), "under the shim, every thread is a G");
	/* 200,000 stacks with guard pages, and not a mapping each. */
	long maps = mappings();
	if (maps >= read_long("/proc/sys/vm/max_map_count") / 2)
		fprintf(stderr, "%ld mappings\n", maps);
	CHECK(maps < read_long("/proc/sys/vm/max_map_count") / 2, "fewer mappings than half vm.max_map_count");

	pthread_mutex_lock(&mu);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	/* Each pair gets a byte per reader parked on it. */
	long want[3] = { 0, 0, 0 };
	long *bytes = calloc((size_t)npairs, sizeof *bytes);
	for (long i = 0; i < made; i++) {
		want[kind_of(i)]++;
		if (kind_of(i) == READER)
			bytes[(i / 10) % npairs]++;
	}
	char buf[READERS_PER_PAIR * 4];
	memset(buf, 'x', sizeof buf);
	for (long p = 0; p < npairs; p++)
		if (bytes[p] && write(pairs[p][1], buf, (size_t)bytes[p]) != bytes[p]) {
			perror("write");
			return 1;
		}

	long bad = 0;
	for (long i = 0; i < made; i++) {
		void *r = NULL;
		if (pthread_join(t[i], &r) != 0 || r != (void *)(i + 1))
			bad++;
	}
	CHECK(bad == 0, "every thread joined with its own result");
	CHECK(done[SLEEPER] == want[SLEEPER], "every sleeper woke and saw the release");
	CHECK(done[WAITER] == want[WAITER], "every condvar waiter woke");
	CHECK(done[READER] == want[READER] && badbyte == 0, "every socket reader got its byte");
	return failures != 0;
}
