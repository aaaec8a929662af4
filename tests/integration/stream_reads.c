/* Blocking reads after a short read.  Under the shim a read of a TCP
 * stream or a pipe that returned less than it asked for marks the stream
 * empty, and the next read parks without trying until the poller sees an
 * edge (shim/fdio.c): checked for read, readv and recvmsg, through the
 * runtime's count of such parks.  Every other case is one where the next
 * read must return at once natively although no new edge comes, or one
 * where data races with the read: an end of file or urgent data behind
 * the data, record boundaries (datagrams, SEQPACKET, packet pipes, AF_UNIX
 * streams that carry fds), and a stream written while it is read; and
 * reads of the error queue, which never block.  A read that parks when it
 * should not hangs, so every case runs in a thread joined with a deadline. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"

#define DEADLINE_S 20

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Joins a case's thread; false if it is not done within DEADLINE_S (a
 * read parked for an edge that never comes). */
static int finishes(pthread_t t)
{
	struct timespec dl = deadline_in(CLOCK_REALTIME, DEADLINE_S * 1000000000L);
	void *ret;
	if (pthread_timedjoin_np(t, &ret, &dl) != 0) {
		fprintf(stderr, "a case did not finish within %d s\n", DEADLINE_S);
		printf("%-60s %s\n", "case finished", "FAILED");
		fflush(stdout);
		_exit(1);
	}
	return ret != NULL;
}

/* Runs fn in a thread, as finishes() judges it. */
static int runs_to_end(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	if (pthread_create(&t, NULL, fn, arg) != 0)
		return 0;
	return finishes(t);
}

/* A connected pair of TCP sockets over loopback.  The listener is left
 * unbound a while, so that the poller (kept busy by keep_polling) sees it
 * hang up as a socket not yet listening does: what it accepts is a
 * stream all the same. */
static void tcp_pair(int sv[2])
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	msleep(5);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 4) != 0 ||
	    getsockname(l, (struct sockaddr *)&a, &len) != 0)
		abort();
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(sv[0], (struct sockaddr *)&a, sizeof a) != 0)
		abort();
	sv[1] = accept(l, NULL, NULL);
	if (sv[1] < 0)
		abort();
	int one = 1;
	setsockopt(sv[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(sv[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	close(l);
}

static void put(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		abort();
}

/* How a case reads: read, readv (two buffers) or recvmsg. */
enum how { BY_READ, BY_READV, BY_RECVMSG };

struct conn {
	int fd;
	enum how how;
};

static ssize_t read_by(const struct conn *c, char *b, size_t n)
{
	struct iovec iov[2] = { { b, n / 2 }, { b + n / 2, n - n / 2 } };
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = 2 };
	switch (c->how) {
	case BY_READV:
		return readv(c->fd, iov, 2);
	case BY_RECVMSG:
		return recvmsg(c->fd, &mh, 0);
	default:
		return read(c->fd, b, n);
	}
}

/* Reads twice with a large buffer: the first read is short, and the
 * second must return what is already behind it.  want: the two results
 * as "n/n" (a negative n is -errno). */
struct twice {
	struct conn c;
	const char *want;
};

static void *read_twice(void *arg)
{
	struct twice *t = arg;
	char b[256], got[32];
	long r[2];
	for (int i = 0; i < 2; i++) {
		r[i] = read_by(&t->c, b, sizeof b);
		if (r[i] < 0)
			r[i] = -errno;
	}
	snprintf(got, sizeof got, "%ld/%ld", r[0], r[1]);
	if (strcmp(got, t->want) != 0)
		fprintf(stderr, "reads returned %s, want %s\n", got, t->want);
	return strcmp(got, t->want) == 0 ? arg : NULL;
}

/* Once what was sent is there and the poller has seen its edges
 * (another G waits on a pipe, so an idle M sits in the poller), reads
 * twice from rd; then closes rd and wr (if any). */
static int settled_reads(int rd, int wr, const char *want)
{
	msleep(50);
	struct twice t = { { rd, BY_READ }, want };
	int ok = runs_to_end(read_twice, &t);
	close(rd);
	if (wr >= 0)
		close(wr);
	return ok;
}

/* The bytes are there, with an end of file behind them, before the
 * first read. */
static int eof_behind_data(int rd, int wr)
{
	put(wr, "abc");
	close(wr);
	return settled_reads(rd, -1, "3/0");
}

static int records(int rd, int wr)
{
	put(wr, "one");
	put(wr, "two");
	return settled_reads(rd, wr, "3/3");
}

/* Urgent data: a read stops short at its mark with "cd" behind it (the
 * urgent byte is out of band, not in the stream). */
static int urgent(void)
{
	int sv[2];
	tcp_pair(sv);
	put(sv[0], "ab");
	msleep(20);
	if (send(sv[0], "X", 1, MSG_OOB) != 1)
		abort();
	msleep(20);
	put(sv[0], "cd");
	return settled_reads(sv[1], sv[0], "2/2");
}

/* Reads of the error queue never block: EAGAIN when it is empty, on a
 * blocking socket too. */
static void *errqueue_read(void *arg)
{
	int fd = *(int *)arg;
	char b[16], c[64];
	struct iovec iov = { b, sizeof b };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c, .msg_controllen = sizeof c };
	ssize_t r = recvmsg(fd, &mh, MSG_ERRQUEUE);
	if (r != -1 || errno != EAGAIN)
		fprintf(stderr, "recvmsg(MSG_ERRQUEUE) returned %zd (errno %d), want EAGAIN\n", r, errno);
	return r == -1 && errno == EAGAIN ? arg : NULL;
}

static int errqueue(void)
{
	int sv[2];
	tcp_pair(sv);
	int ok = runs_to_end(errqueue_read, &sv[1]);
	close(sv[0]);
	close(sv[1]);
	return ok;
}

/* An accepted socket is of its listener's type. */
static int records_accepted(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	snprintf(a.sun_path, sizeof a.sun_path, "/tmp/gmp-stream-reads-%d", (int)getpid());
	unlink(a.sun_path);
	int l = socket(AF_UNIX, SOCK_SEQPACKET, 0), c = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&a, sizeof a) != 0 || listen(l, 1) != 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof a) != 0)
		abort();
	int s = accept(l, NULL, NULL);
	if (s < 0)
		abort();
	close(l);
	unlink(a.sun_path);
	return records(s, c);
}

/* An AF_UNIX stream stops a read after data that carried fds. */
static int unix_fds(void)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	int passed = dup(1);
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { "a", 1 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &passed, sizeof(int));
	if (sendmsg(sv[0], &mh, 0) != 1)
		abort();
	put(sv[0], "bc");
	int ok = settled_reads(sv[1], sv[0], "1/2");
	close(passed);
	return ok;
}

/* Request and response, a short read each way every round trip: the
 * next request always arrives after the read that emptied the stream.
 * Both sides read by the same call. */
#define ROUNDS 3000

static void *echo_side(void *arg)
{
	const struct conn *c = arg;
	int fd = c->fd;
	char b[4096];
	for (;;) {
		ssize_t n = read_by(c, b, sizeof b);
		if (n <= 0)
			return n == 0 ? arg : NULL;
		if (write(fd, b, (size_t)n) != n)
			return NULL;
	}
}

static void *ping_side(void *arg)
{
	const struct conn *c = arg;
	int fd = c->fd;
	char b[4096], msg[64];
	for (int i = 0; i < ROUNDS; i++) {
		int len = snprintf(msg, sizeof msg, "request %d", i);
		if (write(fd, msg, (size_t)len) != len)
			return NULL;
		int got = 0;
		while (got < len) {
			ssize_t n = read_by(c, b + got, sizeof b - (size_t)got);
			if (n <= 0)
				return NULL;
			got += (int)n;
		}
		if (got != len || memcmp(b, msg, (size_t)len) != 0)
			return NULL;
	}
	shutdown(fd, SHUT_WR);
	return arg;
}

static void *pingpong_case(void *arg)
{
	const enum how *how = arg;
	int sv[2];
	tcp_pair(sv);
	struct conn ping = { sv[0], *how }, echo = { sv[1], *how };
	pthread_t e;
	void *eret;
	pthread_create(&e, NULL, echo_side, &echo);
	int ok = ping_side(&ping) != NULL;
	pthread_join(e, &eret);
	close(sv[0]);
	close(sv[1]);
	return ok && eret ? arg : NULL;
}

/* Reads of emptied streams parked without the call so far (the
 * runtime's count; 0 natively). */
static uint64_t drained_parks(void)
{
	struct gmpshim_stats st;
	return gmpshim_stats(&st) == 0 && st.size >= sizeof st ? st.drained_read_parks : 0;
}

/* A short read, then one that finds nothing and no edge since: the
 * second parks without the call.  "abc" is there, and the poller has
 * seen its edge, before the first read begins; "def" comes once the
 * runtime counted the park (natively after 100 ms).  An edge the poller
 * sees only after the first read began moves rgen, and the second read
 * then tries the call: such an attempt is made again, up to 3 times. */
static int parks_at_once(enum how how)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int sv[2];
		tcp_pair(sv);
		put(sv[0], "abc");
		msleep(50);
		uint64_t before = drained_parks();
		struct twice t = { { sv[1], how }, "3/3" };
		pthread_t r;
		if (pthread_create(&r, NULL, read_twice, &t) != 0)
			abort();
		for (int i = 0; i < (under_shim() ? 2000 : 100) && !(under_shim() && drained_parks() > before); i++)
			msleep(1);
		int parked = !under_shim() || drained_parks() > before;
		put(sv[0], "def");
		int ok = finishes(r);
		close(sv[0]);
		close(sv[1]);
		if (!ok)
			return 0;
		if (parked)
			return 1;
	}
	fprintf(stderr, "no read parked without the call in 3 attempts\n");
	return 0;
}

/* A writer that never waits for the reader: pieces of every size land
 * while the reader's reads run, short ones among them. */
#define STREAM_BYTES (8L << 20)

struct streamed {
	int fd;
	unsigned long sum;
	long bytes;
};

static void *stream_writer(void *arg)
{
	struct streamed *s = arg;
	char b[3000];
	unsigned long x = 1;
	for (long sent = 0; sent < STREAM_BYTES;) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		size_t n = 1 + (x >> 33) % sizeof b;
		if (n > (size_t)(STREAM_BYTES - sent))
			n = (size_t)(STREAM_BYTES - sent);
		for (size_t i = 0; i < n; i++) {
			b[i] = (char)(sent + (long)i);
			s->sum += (unsigned char)b[i];
		}
		for (size_t off = 0; off < n;) {
			ssize_t w = write(s->fd, b + off, n - off);
			if (w <= 0)
				return NULL;
			off += (size_t)w;
		}
		sent += (long)n;
		if ((x >> 20) % 8 == 0)
			sched_yield();
	}
	close(s->fd);
	return arg;
}

static void *stream_reader(void *arg)
{
	struct streamed *s = arg;
	char b[1500];
	for (;;) {
		ssize_t n = read(s->fd, b, sizeof b);
		if (n < 0)
			return NULL;
		if (n == 0)
			return arg;
		for (ssize_t i = 0; i < n; i++)
			s->sum += (unsigned char)b[i];
		s->bytes += n;
	}
}

static void *streaming_case(void *arg)
{
	int *fds = arg;
	struct streamed w = { fds[1], 0, 0 }, r = { fds[0], 0, 0 };
	pthread_t t;
	pthread_create(&t, NULL, stream_writer, &w);
	void *rok = stream_reader(&r), *wok;
	pthread_join(t, &wok);
	close(fds[0]);
	if (r.bytes != STREAM_BYTES || r.sum != w.sum)
		fprintf(stderr, "read %ld bytes (sum %lu) of %ld (sum %lu)\n", r.bytes, r.sum, STREAM_BYTES, w.sum);
	return rok && wok && r.bytes == STREAM_BYTES && r.sum == w.sum ? arg : NULL;
}

static int keeper[2];

/* Parked on a pipe for the whole run: the poller is then worth asking,
 * and edges are seen as they come, before the reads of the cases. */
static void *keep_polling(void *arg)
{
	(void)arg;
	char c;
	return read(keeper[0], &c, 1) == 1 ? arg : NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pipe(keeper) != 0)
		abort();
	pthread_t k;
	pthread_create(&k, NULL, keep_polling, NULL);
	msleep(20);

	int sv[2], p[2];
	enum how how[] = { BY_READ, BY_READV, BY_RECVMSG };
	const char *by[] = { "read", "readv", "recvmsg" };
	for (int i = 0; i < 3; i++) {
		char what[80];
		snprintf(what, sizeof what, "tcp: 3000 round trips by %s", by[i]);
		CHECK(runs_to_end(pingpong_case, &how[i]), what);
		snprintf(what, sizeof what, "tcp: by %s, a read after a short one parks at once", by[i]);
		CHECK(parks_at_once(how[i]), what);
	}

	tcp_pair(sv);
	CHECK(runs_to_end(streaming_case, sv), "tcp: 8 MiB written in pieces while read");
	if (pipe(p) != 0)
		abort();
	CHECK(runs_to_end(streaming_case, p), "pipe: 8 MiB written in pieces while read");

	tcp_pair(sv);
	CHECK(eof_behind_data(sv[1], sv[0]), "tcp: data then end of file, both there first");
	if (pipe(p) != 0)
		abort();
	CHECK(eof_behind_data(p[0], p[1]), "pipe: data then end of file, both there first");
	CHECK(urgent(), "tcp: a read stops at urgent data, the rest is there");

	if (pipe2(p, O_DIRECT) != 0)
		abort();
	CHECK(records(p[0], p[1]), "packet pipe: two packets there, two reads");
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) != 0)
		abort();
	CHECK(records(sv[1], sv[0]), "unix seqpacket: two records there, two reads");
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) != 0)
		abort();
	CHECK(records(sv[1], sv[0]), "unix datagrams: two there, two reads");
	int u[2];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	u[0] = socket(AF_INET, SOCK_DGRAM, 0);
	u[1] = socket(AF_INET, SOCK_DGRAM, 0);
	if (bind(u[0], (struct sockaddr *)&a, sizeof a) != 0 || getsockname(u[0], (struct sockaddr *)&a, &len) != 0 ||
	    connect(u[1], (struct sockaddr *)&a, sizeof a) != 0)
		abort();
	CHECK(records(u[0], u[1]), "udp: two datagrams there, two reads");
	CHECK(unix_fds(), "unix stream: a read stops after passed fds, the rest is there");
	CHECK(records_accepted(), "accepted unix seqpacket: two records there, two reads");
	CHECK(errqueue(), "tcp: an empty error queue says EAGAIN, blocking socket or not");

	put(keeper[1], "x");
	pthread_join(k, NULL);
	CHECK(made_as_gs(10), "the threads were Gs");
	return failures != 0;
}
