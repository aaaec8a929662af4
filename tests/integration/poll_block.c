/* Waits on several fds at once must not stop the other threads.  Run
 * with one P (GMP_MAXPROCS=1) too: a worker blocks in poll, ppoll, select
 * or pselect on many pipes and sockets, a counter thread must keep
 * counting while it is blocked, and only then does the last fd become
 * ready; the call must report exactly that fd.  Then many threads block
 * in poll and select at once: another thread still runs, and under the
 * shim they are parked Gs, not kernel threads. */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include "blocked.h"
#include "check.h"

#define NFD 80 /* 40 pipes and 40 socketpairs: several fd_set words, more waiter nodes than fit on the stack */

static int rd[NFD], wr[NFD];

static void make_fds(void)
{
	for (int i = 0; i < NFD; i++) {
		int p[2];
		if (i % 2 ? socketpair(AF_UNIX, SOCK_STREAM, 0, p) : pipe(p))
			abort();
		rd[i] = p[0];
		wr[i] = p[1];
	}
}

static void close_fds(void)
{
	for (int i = 0; i < NFD; i++)
		close(rd[i]), close(wr[i]);
}

/* Makes the last fd readable: what every scenario waits for. */
static void write_last(void)
{
	if (write(wr[NFD - 1], "x", 1) != 1)
		abort();
}

/* scenario, then the byte it wrote drained again. */
static int scenario_last(void *(*fn)(void *))
{
	int ok = scenario(fn, write_last);
	char b;
	if (read(rd[NFD - 1], &b, 1) != 1)
		abort();
	return ok;
}

/* 1 if exactly the last fd was reported readable. */
static long poll_result(int n, struct pollfd *p)
{
	int others = 0;
	for (int i = 0; i < NFD - 1; i++)
		others |= p[i].revents;
	return n == 1 && p[NFD - 1].revents == POLLIN && others == 0;
}

static void fill_pollfds(struct pollfd *p)
{
	for (int i = 0; i < NFD; i++)
		p[i] = (struct pollfd){ .fd = rd[i], .events = POLLIN };
}

static void *do_poll(void *a)
{
	(void)a;
	struct pollfd p[NFD];
	fill_pollfds(p);
	result = poll_result(poll(p, NFD, -1), p);
	return NULL;
}

static void *do_ppoll(void *a)
{
	(void)a;
	struct pollfd p[NFD];
	fill_pollfds(p);
	struct timespec ts = { 60, 0 };
	int n = ppoll(p, NFD, &ts, NULL);
	result = poll_result(n, p) && ts.tv_sec == 60 && ts.tv_nsec == 0;
	return NULL;
}

static int fill_set(fd_set *s)
{
	int max = -1;
	FD_ZERO(s);
	for (int i = 0; i < NFD; i++) {
		FD_SET(rd[i], s);
		max = rd[i] > max ? rd[i] : max;
	}
	return max + 1;
}

/* 1 if exactly the last fd is left in s. */
static long set_result(int n, fd_set *s)
{
	int others = 0;
	for (int i = 0; i < NFD - 1; i++)
		others |= FD_ISSET(rd[i], s);
	return n == 1 && FD_ISSET(rd[NFD - 1], s) && !others;
}

static void *do_select(void *a)
{
	(void)a;
	fd_set r;
	int n = fill_set(&r);
	result = set_result(select(n, &r, NULL, NULL, NULL), &r);
	return NULL;
}

static void *do_pselect(void *a)
{
	(void)a;
	fd_set r, w;
	int n = fill_set(&r);
	FD_ZERO(&w); /* an empty write set next to the read set */
	struct timespec ts = { 60, 0 };
	int k = pselect(n, &r, &w, NULL, &ts, NULL);
	fd_set none;
	FD_ZERO(&none);
	result = set_result(k, &r) && memcmp(&w, &none, sizeof w) == 0 && ts.tv_sec == 60;
	return NULL;
}

/* Many waiters: each has its own pipe; half poll it (with two more fds
 * that never become ready), half select on it. */
#define NWAIT 40
static int wp[NWAIT][2], idle[2];
static volatile int nreturned;

static void *waiter(void *arg)
{
	long i = (long)arg;
	int ok;
	if (i % 2) {
		struct pollfd p[3] = { { idle[0], POLLIN, 0 }, { wp[i][0], POLLIN, 0 }, { rd[0], POLLIN, 0 } };
		ok = poll(p, 3, -1) == 1 && p[1].revents == POLLIN;
	} else {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(idle[0], &r);
		FD_SET(wp[i][0], &r);
		int n = (idle[0] > wp[i][0] ? idle[0] : wp[i][0]) + 1;
		ok = select(n, &r, NULL, NULL, NULL) == 1 && FD_ISSET(wp[i][0], &r) && !FD_ISSET(idle[0], &r);
	}
	__atomic_add_fetch(&nreturned, ok ? 1 : 1000, __ATOMIC_SEQ_CST);
	return NULL;
}

/* Ping-pong: two threads pass a byte over two pipes, each waiting in
 * poll or select together with idle fds; an edge lost between a probe and
 * a park would hang a round. */
#define ROUNDS 3000
static int ping[2], pong[2];

static void wait_in(int fd, int round)
{
	if (round % 2) {
		struct pollfd p[3] = { { idle[0], POLLIN, 0 }, { fd, POLLIN, 0 }, { rd[0], POLLIN, 0 } };
		if (poll(p, 3, -1) != 1 || p[1].revents != POLLIN)
			abort();
	} else {
		fd_set r;
		FD_ZERO(&r);
		FD_SET(idle[0], &r);
		FD_SET(fd, &r);
		FD_SET(rd[0], &r);
		int n = fd > idle[0] ? fd : idle[0];
		n = n > rd[0] ? n : rd[0];
		if (select(n + 1, &r, NULL, NULL, NULL) != 1 || !FD_ISSET(fd, &r))
			abort();
	}
}

static void *ponger(void *arg)
{
	(void)arg;
	char c;
	for (int i = 0; i < ROUNDS; i++) {
		wait_in(ping[0], i);
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			abort();
	}
	return NULL;
}

static int pingpong(void)
{
	if (pipe(ping) || pipe(pong))
		abort();
	pthread_t t;
	pthread_create(&t, NULL, ponger, NULL);
	int ok = 1;
	for (int i = 0; i < ROUNDS; i++) {
		char c = (char)i;
		if (write(ping[1], &c, 1) != 1)
			abort();
		wait_in(pong[0], i + 1);
		ok &= read(pong[0], &c, 1) == 1 && c == (char)i;
	}
	pthread_join(t, NULL);
	close(ping[0]), close(ping[1]), close(pong[0]), close(pong[1]);
	return ok;
}

/* Close races: a waiter in poll or select on {a, b} while main closes a
 * at varying moments (before the call, between its probe and its park,
 * while parked), then writes b.  Whenever the close lands, the waiter
 * must learn of it (POLLNVAL, a set bit, or select's EBADF at entry) and
 * then see b.  Nodes left linked on a closed fd would crash here. */
#define RACES 1000
static int ra[2], rb[2];
static volatile int race_mode;

static void *race_waiter(void *arg)
{
	(void)arg;
	int watch_a = 1, got_b = 0, ok = 1;
	for (int tries = 0; !got_b && tries < 1000; tries++) {
		int n;
		if (race_mode) {
			fd_set r;
			FD_ZERO(&r);
			if (watch_a)
				FD_SET(ra[0], &r);
			FD_SET(rb[0], &r);
			n = select((ra[0] > rb[0] ? ra[0] : rb[0]) + 1, &r, NULL, NULL, NULL);
			if (n < 0) { /* a closed before the call */
				ok &= watch_a;
				watch_a = 0;
				continue;
			}
			if (watch_a && FD_ISSET(ra[0], &r))
				watch_a = 0;
			got_b = FD_ISSET(rb[0], &r);
		} else {
			struct pollfd p[2] = { { watch_a ? ra[0] : -1, POLLIN, 0 }, { rb[0], POLLIN, 0 } };
			n = poll(p, 2, -1);
			ok &= n > 0;
			if (p[0].revents & POLLNVAL)
				watch_a = 0;
			got_b = p[1].revents & POLLIN;
		}
	}
	result = ok && got_b;
	return NULL;
}

static int close_races(void)
{
	int ok = 1;
	for (int i = 0; i < RACES; i++) {
		race_mode = i & 1;
		if (pipe(ra) || pipe(rb))
			abort();
		pthread_t t;
		pthread_create(&t, NULL, race_waiter, NULL);
		if (i % 3)
			sched_yield();
		if (i % 5 == 0)
			usleep(50);
		close(ra[0]);
		if (write(rb[1], "x", 1) != 1)
			abort();
		pthread_join(t, NULL);
		ok &= result == 1;
		close(ra[1]), close(rb[0]), close(rb[1]);
	}
	return ok;
}

int main(void)
{
	alarm(120);
	make_fds();
	CHECK(scenario_last(do_poll) && result == 1, "poll on 80 fds: others run, only the last is reported");
	CHECK(scenario_last(do_ppoll) && result == 1, "ppoll on 80 fds: others run, timeout left unchanged");
	CHECK(scenario_last(do_select) && result == 1, "select on 80 fds: others run, only the last is left");
	CHECK(scenario_last(do_pselect) && result == 1, "pselect on 80 fds: others run, only the last is left");

	if (pipe(idle) != 0)
		return 1;
	CHECK(pingpong(), "3,000 round trips through poll and select: none lost");
	CHECK(close_races(), "1,000 closes racing a poll/select: each reported, then the other fd");

	pthread_t t[NWAIT], c;
	for (long i = 0; i < NWAIT; i++) {
		if (pipe(wp[i]) != 0)
			return 1;
		pthread_create(&t[i], NULL, waiter, (void *)i);
	}
	usleep(50000);
	int moved = others_run(&c);
	CHECK(moved && nreturned == 0, "40 threads in poll/select: another thread runs, none returned");
	/* 40 waiters blocking their own kernel threads would show here. */
	int kt = kernel_threads();
	CHECK(threads_are_gs(kt, NWAIT + 1), "the blocked waiters are parked Gs, not kernel threads");
	for (int i = NWAIT - 1; i >= 0; i--)
		if (write(wp[i][1], "x", 1) != 1)
			return 1;
	for (int i = 0; i < NWAIT; i++)
		pthread_join(t[i], NULL);
	stop = 1;
	pthread_join(c, NULL);
	CHECK(nreturned == NWAIT, "each waiter saw exactly its own fd");
	for (int i = 0; i < NWAIT; i++)
		close(wp[i][0]), close(wp[i][1]);
	close(idle[0]), close(idle[1]);
	close_fds();
	return failures != 0;
}
