/* poll of a single descriptor, woken while it waits: the count and
 * revents must be exactly what the kernel's poll reports, whether the
 * runtime takes them from the readiness its netpoller saw at the wake
 * (shim/pollselect.c, poll_answer) or polls again (events it cannot
 * tell from that, GMPDEBUG=evmask=0).  Each wait begins with nothing
 * ready, so under the shim the thread parks and is woken by the
 * netpoller: data on a pipe and on a TCP socket, POLLRDNORM asked beside
 * POLLIN, a writer that closes (POLLHUP), a full pipe drained (POLLOUT)
 * or whose reader closes (POLLERR), urgent data (POLLPRI), a peer that
 * shuts down (POLLIN|POLLRDHUP).  The same after a read that said EAGAIN
 * (under the shim that read stands for the look before the park,
 * GMPDEBUG=readlook=0 looks again), and where an error was queued
 * before that read, which leaves it there (a transmit timestamp): POLLERR
 * at once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/net_tstamp.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "later.h"
#include "tcppair.h"

static void shut_wr(int fd)
{
	shutdown(fd, SHUT_WR);
}

/* Whether a read of fd (a socket, or a non-blocking pipe) finds nothing
 * to read and says so (EAGAIN). */
static int read_finds_nothing(int fd)
{
	char c;
	ssize_t n = recv(fd, &c, 1, MSG_DONTWAIT);
	if (n == -1 && errno == ENOTSOCK)
		n = read(fd, &c, 1);
	return n == -1 && errno == EAGAIN;
}

/* poll of fd alone for events, woken while it waits by fn(actfd) in
 * another thread; returns poll's result, *rev the revents.  The look
 * before it that finds nothing ready: a poll, or a read (read_first). */
static int poll_woken_after(bool read_first, int fd, short events, void (*fn)(int), int actfd, short *rev)
{
	struct pollfd one = { fd, events, 0x7 };
	if (read_first ? !read_finds_nothing(fd) : poll(&one, 1, 0) != 0)
		return -2; /* something was ready before the wait */
	pthread_t t = after(fn, actfd);
	int n = poll(&one, 1, 5000);
	pthread_join(t, NULL);
	*rev = one.revents;
	return n;
}

static int poll_woken(int fd, short events, void (*fn)(int), int actfd, short *rev)
{
	return poll_woken_after(false, fd, events, fn, actfd, rev);
}

/* Fills the pipe's write end until a write would block. */
static void fill(int fd)
{
	char big[4096] = { 0 };
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while (write(fd, big, sizeof big) > 0)
		;
	fcntl(fd, F_SETFL, 0);
}

int main(void)
{
	alarm(60);
	int p[2], h[2], tp[2];
	short rev;
	if (pipe(p))
		return 1;
	int n = poll_woken(p[0], POLLIN, write1, p[1], &rev);
	CHECK(n == 1 && rev == POLLIN, "pipe: data arrives: POLLIN");
	drain(p[0]);
	n = poll_woken(p[0], POLLIN | POLLRDNORM, write1, p[1], &rev);
	CHECK(n == 1 && rev == (POLLIN | POLLRDNORM), "pipe: POLLIN|POLLRDNORM asked: both");
	drain(p[0]);
	n = poll_woken(p[0], POLLIN | POLLOUT, write1, p[1], &rev);
	CHECK(n == 1 && rev == POLLIN, "pipe read end: POLLIN|POLLOUT asked: POLLIN");
	close(p[0]), close(p[1]);

	if (pipe(h))
		return 1;
	n = poll_woken(h[0], POLLIN, close_fd, h[1], &rev);
	CHECK(n == 1 && rev == POLLHUP, "pipe: the writer closes: POLLHUP alone");
	close(h[0]);
	if (pipe(h))
		return 1;
	fill(h[1]);
	n = poll_woken(h[1], POLLOUT, drain, h[0], &rev);
	CHECK(n == 1 && rev == POLLOUT, "full pipe: a reader drains it: POLLOUT");
	fill(h[1]);
	n = poll_woken(h[1], POLLOUT, close_fd, h[0], &rev);
	CHECK(n == 1 && rev == POLLERR, "full pipe: the reader closes: POLLERR alone");
	close(h[1]);

	if (tcp_pair(tp))
		return 1;
	n = poll_woken(tp[1], POLLIN | POLLPRI, write1, tp[0], &rev);
	CHECK(n == 1 && rev == POLLIN, "TCP socket: data arrives: POLLIN");
	drain(tp[1]);
	n = poll_woken(tp[1], POLLPRI, send_oob, tp[0], &rev);
	CHECK(n == 1 && rev == POLLPRI, "TCP socket: urgent data, POLLPRI asked: POLLPRI");
	close(tp[0]), close(tp[1]);
	if (tcp_pair(tp))
		return 1;
	n = poll_woken(tp[1], POLLIN | POLLRDHUP, shut_wr, tp[0], &rev);
	CHECK(n == 1 && rev == (POLLIN | POLLRDHUP), "TCP socket: the peer shuts down: POLLIN|POLLRDHUP");
	close(tp[0]), close(tp[1]);

	if (tcp_pair(tp))
		return 1;
	n = poll_woken_after(true, tp[1], POLLIN | POLLPRI, write1, tp[0], &rev);
	CHECK(n == 1 && rev == POLLIN, "TCP socket, a read first: data arrives: POLLIN");
	drain(tp[1]);
	/* A sent byte's timestamp waits on the sender's error queue (POLLERR),
	 * which the poller has seen; a read leaves it there. */
	int ts = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	if (setsockopt(tp[0], SOL_SOCKET, SO_TIMESTAMPING, &ts, sizeof ts) == 0) {
		n = poll_woken(tp[0], POLLIN, write1, tp[0], &rev);
		int nothing = n == 1 && rev == POLLERR && read_finds_nothing(tp[0]);
		pthread_t t = after(write1, tp[1]); /* if poll waits after all: data, POLLIN too */
		struct pollfd one = { tp[0], POLLIN, 0 };
		n = poll(&one, 1, 5000);
		pthread_join(t, NULL);
		CHECK(nothing && n == 1 && one.revents == POLLERR,
		      "TCP socket, an error queued before a read: POLLERR at once");
	} else {
		/* qemu-user does not translate the option. */
		fprintf(stderr, "poll_one: SO_TIMESTAMPING refused (%s), queued error not tested\n", strerror(errno));
		CHECK(1, "TCP socket, an error queued before a read: POLLERR at once");
	}
	close(tp[0]), close(tp[1]);
	if (tcp_pair(tp))
		return 1;
	n = poll_woken_after(true, tp[1], POLLIN | POLLRDHUP, shut_wr, tp[0], &rev);
	CHECK(n == 1 && rev == (POLLIN | POLLRDHUP), "TCP socket, a read first: the peer shuts down: POLLIN|POLLRDHUP");
	close(tp[0]), close(tp[1]);
	if (pipe2(h, O_NONBLOCK))
		return 1;
	n = poll_woken_after(true, h[0], POLLIN, close_fd, h[1], &rev);
	CHECK(n == 1 && rev == POLLHUP, "non-blocking pipe, a read first: the writer closes: POLLHUP alone");
	close(h[0]);
	return failures != 0;
}
