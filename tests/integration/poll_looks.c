/* A thread that waits in poll on one descriptor (MariaDB's connection
 * threads wait so for each next statement) makes one poll call natively.
 * Under the shim it looks once before it parks; woken, it takes revents
 * from the readiness the netpoller saw: one call per poll too, where a
 * look after the wake made two (GMPDEBUG=evmask=0 brings it back and
 * fails the count) and one more before parking made three
 * (shim/pollselect.c).  A thread that first reads until a read says
 * EAGAIN (MSG_DONTWAIT, as MariaDB does, or a non-blocking fd) has made
 * that look already: under the shim its poll parks without a call, and
 * fewer than half of its polls make one (GMPDEBUG=readlook=0 fails it).
 *
 * Two threads pass a byte back and forth, over two pipes, then over a TCP
 * connection, each waiting for its byte in poll; the process's poll and ppoll calls
 * are counted by the kernel's syscall tracepoints, on every kernel thread
 * the process has once the exchange runs and every one they make from
 * then on (the shim's Ms included).  Where the tracepoints cannot be
 * opened (no root, no tracefs, an emulator) the count is skipped with a
 * line on stderr, and the checks pass on the exchange alone. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "tcppair.h"

#define ROUNDS 2000
#define WARMUP 200
#define MAXTASKS 64

/* One exchange: main writes to a_out and waits on b_in, the echo thread
 * waits on a_in and writes to b_out; after_read: each first reads with
 * MSG_DONTWAIT until EAGAIN. */
struct exchange {
	int a_in, a_out, b_in, b_out;
	bool after_read;
};
static struct exchange x;
static int counters[2 * MAXTASKS], ncounters;
static long polls_made;

static int wait_and_read(int fd)
{
	struct pollfd p = { .fd = fd, .events = x.after_read ? POLLIN | POLLPRI : POLLIN };
	char c;
	if (x.after_read) {
		ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
		if (n == 1)
			return 0; /* there already */
		if (n != -1 || errno != EAGAIN)
			return -1;
	}
	__atomic_add_fetch(&polls_made, 1, __ATOMIC_RELAXED);
	return poll(&p, 1, -1) == 1 && (p.revents & POLLIN) && read(fd, &c, 1) == 1 ? 0 : -1;
}

static void *echo(void *arg)
{
	(void)arg;
	for (int i = 0; i < WARMUP + ROUNDS; i++)
		if (wait_and_read(x.a_in) != 0 || write(x.b_out, "b", 1) != 1)
			return (void *)1;
	return NULL;
}

static long tracepoint_id(const char *name)
{
	const char *roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (int i = 0; i < 2; i++) {
		char path[256];
		snprintf(path, sizeof path, "%s/events/syscalls/%s/id", roots[i], name);
		FILE *f = fopen(path, "r");
		long id = -1;
		if (f == NULL)
			continue;
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
		if (id >= 0)
			return id;
	}
	return -1;
}

/* One counter per tracepoint per kernel thread of the process, enabled at
 * once; false if none could be opened. */
static bool open_counters(void)
{
	ncounters = 0;
	long ids[2] = { tracepoint_id("sys_enter_poll"), tracepoint_id("sys_enter_ppoll") };
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	while (d && (e = readdir(d)) && ncounters + 2 <= 2 * MAXTASKS) {
		if (e->d_name[0] == '.')
			continue;
		for (int i = 0; i < 2; i++) {
			if (ids[i] < 0)
				continue;
			struct perf_event_attr a;
			memset(&a, 0, sizeof a);
			a.size = sizeof a;
			a.type = PERF_TYPE_TRACEPOINT;
			a.config = (unsigned long long)ids[i];
			a.exclude_hv = 1;
			/* Threads these tasks make from now on (the shim's new
			 * Ms, which the Gs may move to) count in their maker's. */
			a.inherit = 1;
			int fd = (int)syscall(SYS_perf_event_open, &a, atoi(e->d_name), -1, -1, 0);
			if (fd >= 0)
				counters[ncounters++] = fd;
		}
	}
	if (d)
		closedir(d);
	return ncounters > 0;
}

static long read_counters(void)
{
	long sum = 0;
	for (int i = 0; i < ncounters; i++) {
		long long v = 0;
		if (read(counters[i], &v, sizeof v) == sizeof v)
			sum += (long)v;
	}
	return sum;
}

static void close_counters(void)
{
	for (int i = 0; i < ncounters; i++)
		close(counters[i]);
}

/* Runs the exchange; returns the poll and ppoll calls made per poll, -1
 * if they could not be counted, or -2 if a byte went missing. */
static double run_exchange(void)
{
	pthread_t t;
	polls_made = 0;
	if (pthread_create(&t, NULL, echo, NULL) != 0)
		return -2;
	int bad = 0;
	long before = 0, made = 0;
	bool counting = false;
	for (int i = 0; i < WARMUP + ROUNDS; i++) {
		if (i == WARMUP) {
			counting = open_counters();
			before = counting ? read_counters() : 0;
			made = __atomic_load_n(&polls_made, __ATOMIC_RELAXED);
		}
		if (write(x.a_out, "a", 1) != 1 || wait_and_read(x.b_in) != 0)
			bad++;
	}
	void *ret;
	pthread_join(t, &ret);
	if (bad != 0 || ret != NULL)
		return -2;
	if (!counting)
		return -1;
	long calls = read_counters() - before;
	close_counters();
	made = __atomic_load_n(&polls_made, __ATOMIC_RELAXED) - made;
	fprintf(stderr, "poll_looks: %ld poll/ppoll calls for %ld polls (%.2f each), %d counters\n", calls, made,
		(double)calls / (double)made, ncounters);
	/* Give or take the poll of each thread that the count's start split. */
	return (double)(calls < 2 ? 0 : calls - 2) / (double)made;
}

int main(void)
{
	int ab[2], ba[2], sv[2] = { -1, -1 };
	if (pipe(ab) != 0 || pipe(ba) != 0)
		return 1;
	x = (struct exchange){ ab[0], ab[1], ba[0], ba[1], false };
	double each = run_exchange();
	CHECK(each != -2, "poll ping-pong: every byte came back");
	if (each == -1)
		fprintf(stderr, "poll_looks: syscall tracepoints not available, calls not counted\n");
	/* Give or take a wake now and then that needs a look (a write end's edge). */
	CHECK(each < 0 || (each >= 0.99 && each <= 1.05), "poll calls: one per poll");

	if (tcp_pair(sv) != 0)
		return 1;
	x = (struct exchange){ sv[1], sv[0], sv[0], sv[1], true };
	each = run_exchange();
	CHECK(each != -2, "poll ping-pong after reads: every byte came back");
	/* Natively the poll that waits; under the shim a look after a wake
	 * that the poller's report cannot answer for. */
	CHECK(each < 0 || (under_shim() ? each <= 0.5 : each >= 0.99 && each <= 1.05),
	      "poll calls after a read said EAGAIN: at most one per poll");
	return failures != 0;
}
