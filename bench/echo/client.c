/* Closed-loop load for the echo benchmark, run natively: N connections,
 * each with one 64-byte message in flight; every echo is checked and its
 * round trip timed.  Prints one JSON line: connections, round trips per
 * second, and p50/p99 round-trip time in microseconds.
 *
 * usage: echo-client PORT CONNECTIONS SECONDS */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG 64

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int port = atoi(argv[1]), n = atoi(argv[2]);
	double secs = atof(argv[3]);
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int *fd = calloc((size_t)n, sizeof *fd), *got = calloc((size_t)n, sizeof *got);
	int64_t *sent = calloc((size_t)n, sizeof *sent);
	size_t cap = 1 << 20, nlat = 0;
	int64_t *lat = malloc(cap * sizeof *lat);
	int ep = epoll_create1(0), one = 1;
	char msg[MSG], buf[MSG];
	memset(msg, 'e', MSG);
	for (int i = 0; i < n; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(fd[i], (struct sockaddr *)&sa, sizeof sa) != 0) {
			perror("connect");
			return 1;
		}
		setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		fcntl(fd[i], F_SETFL, O_NONBLOCK);
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
		epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &ev);
	}
	int64_t start = now_ns(), end = start + (int64_t)(secs * 1e9);
	for (int i = 0; i < n; i++) {
		sent[i] = now_ns();
		if (write(fd[i], msg, MSG) != MSG)
			return 1;
	}
	struct epoll_event evs[512];
	int64_t t;
	while ((t = now_ns()) < end) {
		int k = epoll_wait(ep, evs, 512, 100);
		for (int e = 0; e < k; e++) {
			int i = (int)evs[e].data.u32;
			ssize_t r;
			while ((r = read(fd[i], buf, (size_t)(MSG - got[i]))) > 0)
				got[i] += (int)r;
			if (got[i] < MSG)
				continue;
			if (memcmp(buf, msg, MSG) != 0) {
				fprintf(stderr, "bad echo\n");
				return 1;
			}
			got[i] = 0;
			int64_t done = now_ns();
			if (nlat == cap)
				lat = realloc(lat, (cap *= 2) * sizeof *lat);
			lat[nlat++] = done - sent[i];
			sent[i] = done;
			if (write(fd[i], msg, MSG) != MSG)
				return 1;
		}
	}
	double elapsed = (double)(t - start) / 1e9;
	qsort(lat, nlat, sizeof *lat, cmp);
	printf("{\"connections\": %d, \"rps\": %.0f, \"p50_us\": %.1f, \"p99_us\": %.1f}\n", n, (double)nlat / elapsed,
	       nlat ? lat[nlat / 2] / 1e3 : 0.0, nlat ? lat[nlat * 99 / 100] / 1e3 : 0.0);
	for (int i = 0; i < n; i++)
		close(fd[i]);
	return 0;
}
