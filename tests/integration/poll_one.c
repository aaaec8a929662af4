/* poll of a single descriptor, woken while it waits: the count and
 * revents must be exactly what the kernel's poll reports, whether the
 * runtime takes them from the readiness its netpoller saw at the wake
 * (shim/pollselect.c, poll_answer) or polls again (events it cannot
 * tell from that, GMPDEBUG=evmask=0).  Each wait begins with nothing
 * ready, so under the shim the thread parks and is woken by the
 * netpoller: data on a pipe and on a TCP socket, POLLRDNORM asked beside
 * POLLIN, a writer that closes (POLLHUP), a full pipe drained (POLLOUT)
 * or whose reader closes (POLLERR), urgent data (POLLPRI), a peer that
 * shuts down (POLLIN|POLLRDHUP). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "later.h"

static void shut_wr(int fd)
{
	shutdown(fd, SHUT_WR);
}

/* poll of fd alone for events, woken while it waits by fn(actfd) in
 * another thread; returns poll's result, *rev the revents. */
static int poll_woken(int fd, short events, void (*fn)(int), int actfd, short *rev)
{
	struct pollfd one = { fd, events, 0x7 };
	if (poll(&one, 1, 0) != 0)
		return -2; /* something was ready before the wait */
	pthread_t t = after(fn, actfd);
	int n = poll(&one, 1, 5000);
	pthread_join(t, NULL);
	*rev = one.revents;
	return n;
}

/* A connected pair of TCP sockets over loopback. */
static int tcp_pair(int sv[2])
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof sa) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sa, &len))
		return -1;
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(sv[0], (struct sockaddr *)&sa, sizeof sa))
		return -1;
	sv[1] = accept(l, NULL, NULL);
	close(l);
	return sv[1] < 0 ? -1 : 0;
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
	return failures != 0;
}
