#define _GNU_SOURCE
#include "tcpserv.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static void *(*conn_fn)(void *);

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
		if (pthread_create(&t, &a, conn_fn, (void *)(long)c) != 0)
			close(c);
	}
	return NULL;
}

int tcpserv_run(void *(*conn)(void *), const char *name)
{
	/* 10,000 connections need more fds than the usual soft limit. */
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	conn_fn = conn;
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 4096) != 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) != 0) {
		perror(name);
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
