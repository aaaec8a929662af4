/* What a program sees of its fds does not change under the shim, even
 * though the shim polls them non-blocking: F_GETFL reports the program's
 * own O_NONBLOCK, a program's non-blocking fd still gives EAGAIN,
 * SO_RCVTIMEO/SO_SNDTIMEO time out, fds it did not create keep their
 * flags, and eventfd/timerfd reads block until there is something. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "check.h"
#include "tcppair.h"

static int nb(int fd)
{
	return (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
}

static long ms_since(struct timespec t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
}

/* A read (recv on a socket) of one byte from an fd with nothing to read
 * gives EAGAIN at once (well under a second: it must not park until
 * something arrives). */
static int eagain_now(int fd, int sock)
{
	char b;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long r = sock ? recv(fd, &b, 1, 0) : read(fd, &b, 1);
	int e = errno;
	return r == -1 && e == EAGAIN && ms_since(t0) < 1000;
}

static int efd;
static void *late_write(void *arg)
{
	(void)arg;
	usleep(50000);
	uint64_t v = 5;
	if (write(efd, &v, sizeof v) != sizeof v)
		perror("eventfd write");
	return NULL;
}

static int pair[2];
static long got;
static int goterr;
static void *blocked_recv(void *arg)
{
	(void)arg;
	char b[8];
	got = recv(pair[0], b, sizeof b, 0);
	goterr = errno;
	return NULL;
}

int main(void)
{
	alarm(60);
	int flags0 = fcntl(0, F_GETFL), flags1 = fcntl(1, F_GETFL), flags2 = fcntl(2, F_GETFL);

	int s = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(!nb(s), "socket(): no O_NONBLOCK reported");
	fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
	CHECK(nb(s), "after F_SETFL O_NONBLOCK: reported");
	fcntl(s, F_SETFL, fcntl(s, F_GETFL) & ~O_NONBLOCK);
	CHECK(!nb(s), "after clearing it: not reported");
	int one = 1, zero = 0;
	ioctl(s, FIONBIO, &one);
	CHECK(nb(s), "FIONBIO on: reported");
	ioctl(s, FIONBIO, &zero);
	CHECK(!nb(s), "FIONBIO off: not reported");
	close(s);
	s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	CHECK(nb(s), "socket(SOCK_NONBLOCK): reported");
	close(s);

	/* A connected TCP socket the program makes non-blocking: recv with
	 * nothing to read gives EAGAIN at once, and clearing it shows. */
	int tp[2];
	if (tcp_pair(tp) != 0)
		return 1;
	int c = tp[0], acc = tp[1];
	CHECK(!nb(c) && !nb(acc), "connected TCP socket: no O_NONBLOCK reported");
	fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
	CHECK(nb(c) && eagain_now(c, 1), "TCP socket after F_SETFL O_NONBLOCK: EAGAIN");
	fcntl(c, F_SETFL, fcntl(c, F_GETFL) & ~O_NONBLOCK);
	CHECK(!nb(c), "TCP socket after clearing it: not reported");
	close(c), close(acc);

	int p[2];
	if (pipe(p) != 0)
		return 1;
	CHECK(!nb(p[0]) && !nb(p[1]), "pipe(): no O_NONBLOCK reported");
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	CHECK(nb(p[0]) && !nb(p[1]) && eagain_now(p[0], 0), "pipe() after F_SETFL O_NONBLOCK: EAGAIN");
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) & ~O_NONBLOCK);
	CHECK(!nb(p[0]), "pipe() after clearing it: not reported");
	close(p[0]), close(p[1]);
	if (pipe2(p, O_NONBLOCK) != 0)
		return 1;
	char b[8];
	CHECK(nb(p[0]) && nb(p[1]) && eagain_now(p[0], 0), "pipe2(O_NONBLOCK): reported, EAGAIN");
	close(p[0]), close(p[1]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0)
		return 1;
	fcntl(pair[0], F_SETFL, O_NONBLOCK);
	CHECK(recv(pair[0], b, 1, 0) == -1 && errno == EAGAIN, "program's own O_NONBLOCK: recv gives EAGAIN");
	fcntl(pair[0], F_SETFL, 0);

	struct timeval tv = { 0, 200000 };
	setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long r = recv(pair[0], b, 1, 0);
	int e = errno;
	long ms = ms_since(t0);
	CHECK(r == -1 && e == EAGAIN && ms >= 150 && ms < 5000, "SO_RCVTIMEO 200 ms: EAGAIN in time");

	setsockopt(pair[1], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	char big[65536];
	memset(big, 'x', sizeof big);
	while (send(pair[1], big, sizeof big, MSG_DONTWAIT) > 0)
		;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = send(pair[1], big, sizeof big, 0);
	e = errno;
	ms = ms_since(t0);
	CHECK(r == -1 && e == EAGAIN && ms >= 150 && ms < 5000, "SO_SNDTIMEO 200 ms on a full socket: EAGAIN");
	close(pair[0]), close(pair[1]);

	struct pollfd pf = { .fd = 0, .events = POLLIN };
	poll(&pf, 1, 0);
	CHECK(fcntl(0, F_GETFL) == flags0 && fcntl(1, F_GETFL) == flags1 && fcntl(2, F_GETFL) == flags2,
	      "stdin, stdout, stderr flags unchanged");

	/* close under a parked reader: it returns, with EOF once the peer is
	 * gone (Linux) or EBADF at the close (a Go-style runtime). */
	socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
	pthread_t t;
	pthread_create(&t, NULL, blocked_recv, NULL);
	usleep(100000);
	close(pair[0]);
	usleep(100000);
	close(pair[1]);
	pthread_join(t, NULL);
	CHECK(got == 0 || (got == -1 && goterr == EBADF), "close under a blocked recv: it returns");

	socketpair(AF_UNIX, SOCK_STREAM, 0, pair);
	int other = open("/dev/null", O_RDONLY);
	pthread_create(&t, NULL, blocked_recv, NULL);
	usleep(100000);
	int keep = dup(pair[0]);
	dup2(other, pair[0]);
	usleep(100000);
	close(pair[1]);
	pthread_join(t, NULL);
	CHECK(got == 0 || (got == -1 && goterr == EBADF), "dup2 over a blocked recv: it returns");
	close(keep), close(other), close(pair[0]);

	efd = eventfd(0, 0);
	pthread_create(&t, NULL, late_write, NULL);
	uint64_t v = 0;
	CHECK(read(efd, &v, sizeof v) == sizeof v && v == 5, "eventfd read blocks until a write of 5");
	pthread_join(t, NULL);
	close(efd);

	int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = { .it_value = { 0, 100000000 } };
	timerfd_settime(tfd, 0, &its, NULL);
	v = 0;
	CHECK(read(tfd, &v, sizeof v) == sizeof v && v == 1, "timerfd read blocks until one expiry");
	close(tfd);
	return failures != 0;
}
