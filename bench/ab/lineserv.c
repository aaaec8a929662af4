#define _GNU_SOURCE
#include "lineserv.h"
#include "../echo/tcpserv.h"
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

uint64_t lineserv_work(const char *line, size_t len, int rounds)
{
	uint64_t h = 1469598103934665603ULL;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < len; i++)
			h = (h ^ (unsigned char)line[i]) * 1099511628211ULL;
	return h;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void *conn_thread(void *arg)
{
	int fd = (int)(long)arg, one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	char buf[4096];
	size_t have = 0;
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof buf - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		size_t start = 0;
		char *nl;
		while ((nl = memchr(buf + start, '\n', have - start))) {
			size_t len = (size_t)(nl - (buf + start)) + 1;
			serve_line(buf + start, len);
			if (write_all(fd, buf + start, len) != 0)
				goto out;
			start += len;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have == sizeof buf)
			break; /* a line longer than the buffer: not our protocol */
	}
out:
	close(fd);
	return NULL;
}

int lineserv_main(void)
{
	serve_init();
	return tcpserv_run(conn_thread, "line server");
}
