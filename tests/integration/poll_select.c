/* What poll, ppoll, select, pselect and the epoll waits report, with
 * several fds: revents (POLLIN, POLLOUT, POLLHUP, POLLERR, POLLNVAL),
 * rewritten fd_sets, return counts, timeouts (select writes back the time
 * left, pselect and ppoll do not), regular files that are always ready,
 * a close of a watched fd under a waiting thread, and the calls with a
 * signal mask.  Built with _FORTIFY_SOURCE so that poll, ppoll and FD_SET
 * go through __poll_chk, __ppoll_chk and __fdelt_chk. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "later.h"

/* Counts kept out of the compiler's sight, so the fortified wrappers call
 * the _chk entry points. */
static volatile nfds_t two = 2, three = 3;

static long ms_since(struct timespec t0)
{
	struct timespec t1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
}

static int maxfd(int a, int b)
{
	return a > b ? a : b;
}

static int set_empty(const fd_set *s)
{
	fd_set none;
	FD_ZERO(&none);
	return memcmp(s, &none, sizeof none) == 0;
}

/* --- close of a watched fd under a poll/select in another thread --- */
static int a[2], b[2];
static void *close_then_write(void *arg)
{
	(void)arg;
	usleep(50000);
	close(a[0]);
	usleep(20000);
	write1(b[1]);
	return NULL;
}

static void *dup2_then_write(void *arg)
{
	usleep(50000);
	dup2(*(int *)arg, a[0]);
	usleep(20000);
	write1(b[1]);
	return NULL;
}

static void sigusr1(int sig)
{
	(void)sig;
}

int main(void)
{
	alarm(60);
	struct timespec t0;
	int p[2], q[2], s[2];
	if (pipe(p) || pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
		return 1;

	/* poll: nothing ready, then a timeout with revents cleared. */
	struct pollfd pf[3] = { { p[0], POLLIN, 0 }, { q[0], POLLIN, 0 }, { s[0], POLLIN, 0 } };
	CHECK(poll(pf, three, 0) == 0, "poll, 3 fds, none ready, timeout 0: 0");
	pf[0].revents = pf[1].revents = pf[2].revents = 0x7;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int n = poll(pf, three, 100);
	long ms = ms_since(t0);
	CHECK(n == 0 && pf[0].revents == 0 && pf[1].revents == 0 && pf[2].revents == 0,
	      "poll, 3 fds, 100 ms: 0, revents cleared");
	CHECK(ms >= 95 && ms < 5000, "poll, 3 fds, 100 ms: waited the timeout");

	/* poll: readiness arrives in another thread; counts and revents. */
	pthread_t t = after(write1, s[1]);
	n = poll(pf, three, 5000);
	pthread_join(t, NULL);
	CHECK(n == 1 && pf[0].revents == 0 && pf[1].revents == 0 && pf[2].revents == POLLIN,
	      "poll, 3 fds: the socket becomes readable: 1, POLLIN on it only");
	write1(p[1]);
	n = poll(pf, three, -1);
	CHECK(n == 2 && pf[0].revents == POLLIN && pf[2].revents == POLLIN, "poll, 2 of 3 ready: 2");
	char c;
	if (read(p[0], &c, 1) != 1 || read(s[0], &c, 1) != 1)
		return 1;

	/* POLLOUT: the write end of a full pipe waits for a reader. */
	fcntl(q[1], F_SETFL, O_NONBLOCK);
	char big[4096] = { 0 };
	while (write(q[1], big, sizeof big) > 0)
		;
	fcntl(q[1], F_SETFL, 0);
	struct pollfd wf[2] = { { q[1], POLLOUT, 0 }, { p[0], POLLIN, 0 } };
	CHECK(poll(wf, two, 0) == 0, "poll: a full pipe is not writable");
	t = after(drain, q[0]);
	n = poll(wf, two, 5000);
	pthread_join(t, NULL);
	CHECK(n == 1 && (wf[0].revents & POLLOUT) && wf[1].revents == 0, "poll: the pipe drains: POLLOUT");
	close(q[0]), close(q[1]);
	if (pipe(q)) /* an empty one again */
		return 1;
	pf[1].fd = q[0];

	/* POLLHUP: the writer of a pipe goes away. */
	int h[2];
	if (pipe(h))
		return 1;
	struct pollfd hf[2] = { { p[0], POLLIN, 0 }, { h[0], POLLIN, 0 } };
	t = after(close_fd, h[1]);
	n = poll(hf, two, 5000);
	pthread_join(t, NULL);
	CHECK(n == 1 && hf[0].revents == 0 && hf[1].revents == POLLHUP, "poll: writer closes: POLLHUP alone");
	close(h[0]);

	/* POLLERR: the reader of a pipe goes away under a waiting writer. */
	if (pipe(h))
		return 1;
	fcntl(h[1], F_SETFL, O_NONBLOCK);
	while (write(h[1], big, sizeof big) > 0)
		;
	struct pollfd ef[2] = { { p[0], POLLIN, 0 }, { h[1], POLLOUT, 0 } };
	t = after(close_fd, h[0]);
	n = poll(ef, two, 5000);
	pthread_join(t, NULL);
	CHECK(n == 1 && ef[0].revents == 0 && (ef[1].revents & POLLERR), "poll: reader closes: POLLERR");
	close(h[1]);

	/* Bad arguments are the kernel's to judge (pointers hidden from
	 * the fortified wrapper, which would check their size first). */
	struct pollfd *volatile anyp = pf, *volatile badp = (struct pollfd *)8;
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	errno = 0;
	CHECK(poll(anyp, (nfds_t)rl.rlim_cur + 1, 1000) == -1 && errno == EINVAL,
	      "poll: nfds past RLIMIT_NOFILE: EINVAL");
	errno = 0;
	CHECK(poll(badp, two, 1000) == -1 && errno == EFAULT, "poll: a bad array: EFAULT");
	errno = 0;
	CHECK(poll(badp, 1, 1000) == -1 && errno == EFAULT, "poll: a bad one-entry array: EFAULT");

	/* Negative fds are skipped; no fds at all is a sleep. */
	struct pollfd neg[2] = { { -1, POLLIN, 0x7 }, { p[0], POLLIN, 0 } };
	t = after(write1, p[1]);
	n = poll(neg, two, 5000);
	pthread_join(t, NULL);
	CHECK(n == 1 && neg[0].revents == 0 && neg[1].revents == POLLIN, "poll: a negative fd is ignored");
	if (read(p[0], &c, 1) != 1)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = poll(NULL, 0, 60);
	ms = ms_since(t0);
	CHECK(n == 0 && ms >= 55, "poll of no fds for 60 ms: a sleep, 0");

	/* A regular file is always ready: the call returns at once. */
	char path[] = "/tmp/poll_select.XXXXXX";
	int f = mkstemp(path);
	unlink(path);
	struct pollfd ff[3] = { { p[0], POLLIN, 0 }, { f, POLLIN | POLLOUT, 0 }, { s[0], POLLIN, 0 } };
	n = poll(ff, three, -1);
	CHECK(n == 1 && ff[0].revents == 0 && ff[1].revents == (POLLIN | POLLOUT) && ff[2].revents == 0,
	      "poll: pipe + regular file + socket: the file at once");
	fd_set rs, ws;
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(f, &rs);
	n = select(maxfd(p[0], f) + 1, &rs, NULL, NULL, NULL);
	CHECK(n == 1 && FD_ISSET(f, &rs) && !FD_ISSET(p[0], &rs), "select: pipe + regular file: the file at once");

	/* select: timeout expiry clears the sets and the timeout. */
	int top = maxfd(maxfd(p[0], q[0]), s[0]) + 1;
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(q[0], &rs);
	FD_SET(s[0], &rs);
	fd_set es = rs;
	struct timeval tv = { 0, 80000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = select(top, &rs, NULL, &es, &tv);
	ms = ms_since(t0);
	CHECK(n == 0 && set_empty(&rs) && set_empty(&es), "select, 80 ms, nothing: 0, sets cleared");
	CHECK(tv.tv_sec == 0 && tv.tv_usec == 0, "select, 80 ms, nothing: timeout written back as 0");
	CHECK(ms >= 75 && ms < 5000, "select, 80 ms: waited the timeout");

	/* select: one fd becomes ready, the time left is written back. */
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(q[0], &rs);
	FD_SET(s[0], &rs);
	FD_ZERO(&ws);
	tv = (struct timeval){ 5, 0 };
	t = after(write1, p[1]);
	n = select(top, &rs, &ws, NULL, &tv);
	pthread_join(t, NULL);
	CHECK(n == 1 && FD_ISSET(p[0], &rs) && !FD_ISSET(q[0], &rs) && !FD_ISSET(s[0], &rs) && set_empty(&ws),
	      "select: the pipe becomes readable: 1, only it left");
	CHECK(tv.tv_sec <= 4 && tv.tv_sec >= 0 && tv.tv_usec >= 0 && tv.tv_usec < 1000000 &&
		      tv.tv_sec * 1000000L + tv.tv_usec > 0,
	      "select: the time left is written back (under 5 s)");
	tv = (struct timeval){ 0, 2500000 }; /* microseconds past a second carry over */
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	n = select(p[0] + 1, &rs, NULL, NULL, &tv);
	CHECK(n == 1 && tv.tv_sec == 2 && tv.tv_usec > 0, "select: tv_usec of 2.5 s is normalized");
	if (read(p[0], &c, 1) != 1)
		return 1;
	/* A timeout of centuries is valid: as good as none. */
	tv = (struct timeval){ LONG_MAX / 2, 999999 };
	t = after(write1, p[1]);
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(s[0], &rs);
	n = select(maxfd(p[0], s[0]) + 1, &rs, NULL, NULL, &tv);
	pthread_join(t, NULL);
	CHECK(n == 1 && FD_ISSET(p[0], &rs) && tv.tv_sec > LONG_MAX / 4, "select: a huge timeout, then ready");
	struct pollfd hp[2] = { { p[0], POLLIN, 0 }, { s[0], POLLIN, 0 } };
	CHECK(ppoll(hp, two, &(struct timespec){ LONG_MAX, 0 }, NULL) == 1 && hp[0].revents == POLLIN,
	      "ppoll: a huge timeout, ready");
	if (read(p[0], &c, 1) != 1)
		return 1;
	tv = (struct timeval){ 0, -1 };
	errno = 0;
	CHECK(select(top, &rs, NULL, NULL, &tv) == -1 && errno == EINVAL, "select: negative timeout: EINVAL");
	FD_ZERO(&ws);
	FD_SET(p[1], &ws);
	FD_SET(s[1], &ws);
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	n = select(maxfd(p[1], s[1]) + 1, &rs, &ws, NULL, NULL);
	CHECK(n == 2 && FD_ISSET(p[1], &ws) && FD_ISSET(s[1], &ws) && !FD_ISSET(p[0], &rs),
	      "select: two writable fds count 2");
	int closed = dup(p[0]);
	close(closed);
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(closed, &rs);
	errno = 0;
	CHECK(select(maxfd(p[0], closed) + 1, &rs, NULL, NULL, NULL) == -1 && errno == EBADF,
	      "select on a closed fd: EBADF at once");

	/* pselect without a mask: the timeout is left alone. */
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(s[0], &rs);
	struct timespec ts = { 0, 60000000 };
	n = pselect(maxfd(p[0], s[0]) + 1, &rs, NULL, NULL, &ts, NULL);
	CHECK(n == 0 && set_empty(&rs) && ts.tv_sec == 0 && ts.tv_nsec == 60000000,
	      "pselect, 60 ms, nothing: 0, timeout unchanged");
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(s[0], &rs);
	ts = (struct timespec){ 5, 0 };
	t = after(write1, s[1]);
	n = pselect(maxfd(p[0], s[0]) + 1, &rs, NULL, NULL, &ts, NULL);
	pthread_join(t, NULL);
	CHECK(n == 1 && FD_ISSET(s[0], &rs) && !FD_ISSET(p[0], &rs) && ts.tv_sec == 5,
	      "pselect: the socket becomes readable: 1, timeout unchanged");
	if (read(s[0], &c, 1) != 1)
		return 1;
	ts = (struct timespec){ 0, 1000000000 };
	errno = 0;
	CHECK(pselect(1, NULL, NULL, NULL, &ts, NULL) == -1 && errno == EINVAL, "pselect: tv_nsec 1e9: EINVAL");
	errno = 0;
	CHECK(ppoll(pf, three, &ts, NULL) == -1 && errno == EINVAL, "ppoll: tv_nsec 1e9: EINVAL");

	/* Close of a watched fd while another thread waits.  Linux keeps the
	 * poll waiting and reports POLLNVAL for the fd at its next scan; the
	 * shim ends the wait at the close with POLLNVAL (docs/compat.md).
	 * Either way, a loop that drops POLLNVAL fds ends with the closed fd
	 * reported and the other one readable. */
	if (pipe(a) || pipe(b))
		return 1;
	pthread_create(&t, NULL, close_then_write, NULL);
	struct pollfd cf[2] = { { a[0], POLLIN, 0 }, { b[0], POLLIN, 0 } };
	int nval = 0, tries = 0;
	while (!(cf[1].revents & POLLIN) && tries++ < 100) {
		if (poll(cf, two, 5000) < 0)
			break;
		if (cf[0].revents & POLLNVAL) {
			nval = 1;
			cf[0].fd = -1;
		}
	}
	pthread_join(t, NULL);
	CHECK(nval && (cf[1].revents & POLLIN), "close under poll: POLLNVAL for it, the other fd readable");
	close(a[1]), close(b[0]), close(b[1]);

	/* dup2 over a watched fd: Linux's next scan looks at the new file
	 * (here /dev/null, always readable); the shim looks at once. */
	if (pipe(a) || pipe(b))
		return 1;
	int devnull = open("/dev/null", O_RDONLY);
	pthread_create(&t, NULL, dup2_then_write, &devnull);
	struct pollfd df[2] = { { a[0], POLLIN, 0 }, { b[0], POLLIN, 0 } };
	int saw_new = 0;
	tries = 0;
	while (!(df[1].revents & POLLIN) && tries++ < 100) {
		if (poll(df, two, 5000) < 0)
			break;
		if (df[0].revents & POLLIN) {
			saw_new = 1;
			df[0].fd = -1;
		}
	}
	pthread_join(t, NULL);
	CHECK(saw_new && (df[1].revents & POLLIN), "dup2 over a watched fd: the new file is looked at");
	close(a[0]), close(a[1]), close(b[0]), close(b[1]), close(devnull);

	/* The same under select: Linux's next scan reports the closed fd
	 * ready (its mask is POLLNVAL); the shim does so at the close. */
	if (pipe(a) || pipe(b))
		return 1;
	pthread_create(&t, NULL, close_then_write, NULL);
	int watch_a = 1, saw_a = 0, saw_b = 0, counted = 1;
	tries = 0;
	while (!saw_b && tries++ < 100) {
		FD_ZERO(&rs);
		if (watch_a)
			FD_SET(a[0], &rs);
		FD_SET(b[0], &rs);
		n = select(maxfd(a[0], b[0]) + 1, &rs, NULL, NULL, NULL);
		if (n < 0)
			break;
		int a_set = watch_a && FD_ISSET(a[0], &rs), b_set = FD_ISSET(b[0], &rs);
		counted &= n == a_set + b_set;
		if (a_set) {
			saw_a = 1;
			watch_a = 0;
		}
		saw_b = b_set;
	}
	pthread_join(t, NULL);
	CHECK(saw_a && saw_b && counted, "close under select: reported ready, the other fd readable");
	close(a[1]), close(b[0]), close(b[1]);

	/* Urgent data wakes select's exceptfds (and POLLPRI). */
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa_in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t salen = sizeof sa_in;
	if (bind(l, (struct sockaddr *)&sa_in, sizeof sa_in) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sa_in, &salen))
		return 1;
	int cli = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(cli, (struct sockaddr *)&sa_in, sizeof sa_in))
		return 1;
	int srv = accept(l, NULL, NULL);
	t = after(send_oob, cli);
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_ZERO(&es);
	FD_SET(srv, &es);
	FD_SET(p[0], &es);
	n = select(maxfd(p[0], srv) + 1, &rs, NULL, &es, NULL);
	pthread_join(t, NULL);
	CHECK(n == 1 && FD_ISSET(srv, &es) && !FD_ISSET(p[0], &es) && set_empty(&rs),
	      "select: urgent data on a TCP socket: in exceptfds");
	struct pollfd up[2] = { { p[0], POLLIN, 0 }, { srv, POLLPRI, 0 } };
	CHECK(poll(up, two, 5000) == 1 && (up[1].revents & POLLPRI), "poll: urgent data: POLLPRI");
	close(srv), close(cli), close(l);

	/* With a signal mask: the kernel swaps the mask in for the wait. */
	struct sigaction sa = { .sa_handler = sigusr1 };
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t block, empty, old;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	t = after(write1, s[1]);
	ts = (struct timespec){ 5, 0 };
	n = ppoll(pf, three, &ts, &block);
	pthread_join(t, NULL);
	CHECK(n == 1 && pf[2].revents == POLLIN && ts.tv_sec == 5, "ppoll with a mask: readiness, ts unchanged");
	if (read(s[0], &c, 1) != 1)
		return 1;
	ts = (struct timespec){ 0, 50000000 };
	CHECK(ppoll(pf, three, &ts, &block) == 0, "ppoll with a mask: timeout 0");
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	FD_SET(s[0], &rs);
	CHECK(pselect(maxfd(p[0], s[0]) + 1, &rs, NULL, NULL, &ts, &block) == 0 && set_empty(&rs),
	      "pselect with a mask: timeout 0");
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = s[0] }, out[2];
	epoll_ctl(ep, EPOLL_CTL_ADD, s[0], &ev);
	CHECK(epoll_pwait(ep, out, 2, 50, &block) == 0, "epoll_pwait with a mask: timeout 0");
	CHECK(epoll_pwait2(ep, out, 2, &ts, &block) == 0, "epoll_pwait2 with a mask: timeout 0");
	t = after(write1, s[1]);
	n = epoll_pwait2(ep, out, 2, NULL, &block);
	pthread_join(t, NULL);
	CHECK(n == 1 && out[0].data.fd == s[0], "epoll_pwait2 with a mask: readiness");
	errno = 0;
	CHECK(epoll_pwait2(ep, out, 2, &(struct timespec){ 0, -1 }, NULL) == -1 && errno == EINVAL,
	      "epoll_pwait2: negative tv_nsec: EINVAL");
	if (read(s[0], &c, 1) != 1)
		return 1;
	/* A signal pending while blocked, unblocked by the call's mask: the
	 * wait ends with EINTR after the handler ran. */
	pthread_sigmask(SIG_BLOCK, &block, &old);
	raise(SIGUSR1);
	errno = 0;
	CHECK(ppoll(pf, three, NULL, &empty) == -1 && errno == EINTR, "ppoll: pending signal let in by the mask: EINTR");
	raise(SIGUSR1);
	FD_ZERO(&rs);
	FD_SET(p[0], &rs);
	errno = 0;
	CHECK(pselect(p[0] + 1, &rs, NULL, NULL, NULL, &empty) == -1 && errno == EINTR,
	      "pselect: pending signal let in by the mask: EINTR");
	raise(SIGUSR1);
	errno = 0;
	CHECK(epoll_pwait(ep, out, 2, -1, &empty) == -1 && errno == EINTR,
	      "epoll_pwait: pending signal let in by the mask: EINTR");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(ep);
	close(f);
	close(p[0]), close(p[1]), close(q[0]), close(q[1]), close(s[0]), close(s[1]);
	return failures != 0;
}
