/* Thread-per-connection TCP echo server for the echo benchmark: one
 * thread (64 KiB stack) per accepted connection, blocking read/write.
 * Prints its port, then serves until stdin closes. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

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

static void *acceptor(void *arg)
{
	int l = (int)(long)arg;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (;;) {
		int c = accept(l, NULL, NULL);
		if (c < 0)
			continue;
		pthread_t t;
		if (pthread_create(&t, &a, serve, (void *)(long)c) != 0)
			close(c);
	}
	return NULL;
}

int main(void)
{
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 4096) != 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) != 0) {
		perror("echo server");
		return 1;
	}
	printf("%d\n", ntohs(sa.sin_port));
	fflush(stdout);
	pthread_t t;
	pthread_create(&t, NULL, acceptor, (void *)(long)l);
	char c;
	while (read(0, &c, 1) > 0)
		;
	return 0;
}
