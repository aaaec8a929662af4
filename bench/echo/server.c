/* Thread-per-connection TCP echo server for the echo benchmark: one
 * thread (64 KiB stack) per accepted connection, blocking read/write.
 * Prints its port, then serves until stdin closes. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tcpserv.h"

static void *serve(void *arg)
{
	int fd = (int)(long)arg;
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	char buf[512];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	close(fd);
	return NULL;
}

int main(void)
{
	return tcpserv_run(serve, "echo server");
}
