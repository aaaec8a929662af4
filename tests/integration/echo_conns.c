/* A thread-per-connection echo server holding N connections at once
 * (default 10,000), each echoing a message unique to it.  The load comes
 * from a forked single-threaded client using epoll.  Under the shim the
 * N server threads must ride on a few dozen kernel threads at most. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define MSG 64

static int nconns;
static int alive, peak;

static void *serve(void *arg)
{
	int fd = (int)(long)arg;
	int now = __atomic_add_fetch(&alive, 1, __ATOMIC_RELAXED);
	int p = __atomic_load_n(&peak, __ATOMIC_RELAXED);
	while (now > p && !__atomic_compare_exchange_n(&peak, &p, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	char buf[256];
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		if (write(fd, buf, (size_t)n) != n)
			break;
	close(fd);
	__atomic_sub_fetch(&alive, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *acceptor(void *arg)
{
	int l = (int)(long)arg;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 * 1024);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (int i = 0; i < nconns; i++) {
		int c = accept(l, NULL, NULL);
		if (c < 0) {
			perror("accept");
			exit(1);
		}
		pthread_t t;
		if (pthread_create(&t, &a, serve, (void *)(long)c) != 0) {
			fprintf(stderr, "pthread_create failed at %d\n", i);
			exit(1);
		}
	}
	return NULL;
}

static void message(int i, char *m)
{
	memset(m, 'a' + i % 26, MSG);
	snprintf(m, MSG, "connection %d:", i);
	m[strlen(m)] = '#';
}

/* Opens connection i non-blocking and registers it with ep for the
 * completion of its connect (EPOLLOUT) or as connected already. */
static int start_connect(int ep, struct sockaddr_in *sa, int i, int *fd)
{
	for (int tries = 0;; tries++) {
		fd[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd[i] < 0) {
			perror("client socket");
			return -1;
		}
		if (connect(fd[i], (struct sockaddr *)sa, sizeof *sa) == 0 || errno == EINPROGRESS)
			break;
		if (errno != EAGAIN || tries == 1000) {
			perror("client connect");
			return -1;
		}
		close(fd[i]); /* EAGAIN: out of something for now, try again */
		usleep(1000);
	}
	struct epoll_event ev = { .events = EPOLLOUT, .data.u32 = (uint32_t)i };
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd[i], &ev);
}

/* The client, single-threaded: connect all N non-blocking, hold them all,
 * then send every message and read every echo back, all through epoll.
 * Tells the parent on ready_fd once all are echoed and closes them only
 * after a byte on go_fd. */
static int client(struct sockaddr_in *sa, int ready_fd, int go_fd)
{
	int *fd = calloc((size_t)nconns, sizeof *fd);
	int *got = calloc((size_t)nconns, sizeof *got);
	char(*buf)[MSG] = calloc((size_t)nconns, MSG);
	int ep = epoll_create1(0);
	struct epoll_event evs[256];
	if (!fd || !got || !buf || ep < 0)
		return 1;

	/* Connect, keeping at most 1,024 connects in flight. */
	int started = 0, connected = 0;
	while (connected < nconns) {
		while (started < nconns && started - connected < 1024)
			if (start_connect(ep, sa, started++, fd) != 0)
				return 1;
		int n = epoll_wait(ep, evs, 256, 10000);
		if (n <= 0) {
			fprintf(stderr, "client: %d of %d connected after a 10 s wait\n", connected, nconns);
			return 1;
		}
		for (int k = 0; k < n; k++) {
			int i = (int)evs[k].data.u32, err = 0;
			socklen_t len = sizeof err;
			if (getsockopt(fd[i], SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
				fprintf(stderr, "client: connect %d: %s\n", i, strerror(err));
				return 1;
			}
			struct epoll_event ev = { .events = EPOLLIN, .data.u32 = (uint32_t)i };
			epoll_ctl(ep, EPOLL_CTL_MOD, fd[i], &ev); /* from now on: wait for the echo */
			connected++;
		}
	}

	/* All N are open: send every message, then collect every echo. */
	for (int i = 0; i < nconns; i++) {
		char m[MSG];
		message(i, m);
		if (write(fd[i], m, MSG) != MSG) {
			perror("client write");
			return 1;
		}
	}
	int done = 0;
	while (done < nconns) {
		int n = epoll_wait(ep, evs, 256, 10000);
		if (n <= 0) {
			fprintf(stderr, "client: %d of %d echoes after a 10 s wait\n", done, nconns);
			return 1;
		}
		for (int k = 0; k < n; k++) {
			int i = (int)evs[k].data.u32;
			ssize_t r = 1;
			while (got[i] < MSG && (r = read(fd[i], buf[i] + got[i], (size_t)(MSG - got[i]))) > 0)
				got[i] += (int)r;
			if (got[i] < MSG && (r == 0 || errno != EAGAIN)) {
				fprintf(stderr, "client: connection %d ended after %d bytes\n", i, got[i]);
				return 1;
			}
			if (got[i] == MSG) {
				char m[MSG];
				message(i, m);
				if (memcmp(m, buf[i], MSG) != 0) {
					fprintf(stderr, "client: wrong echo on %d\n", i);
					return 1;
				}
				epoll_ctl(ep, EPOLL_CTL_DEL, fd[i], NULL);
				got[i]++;
				done++;
			}
		}
	}
	char c = 1;
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		return 1;
	for (int i = 0; i < nconns; i++)
		close(fd[i]);
	return 0;
}

int main(int argc, char **argv)
{
	alarm(120);
	nconns = argc > 1 ? atoi(argv[1]) : 10000;
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);

	int l = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof sa;
	if (bind(l, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(l, 4096) != 0)
		return 1;
	getsockname(l, (struct sockaddr *)&sa, &len);

	/* ready: the client has every echo back; go: it may close them all. */
	int ready[2], go[2];
	if (pipe(ready) != 0 || pipe(go) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		close(l), close(ready[0]), close(go[1]);
		_exit(client(&sa, ready[1], go[0]));
	}
	close(ready[1]), close(go[0]); /* so a dead client reads as EOF */
	pthread_t at;
	pthread_create(&at, NULL, acceptor, (void *)(long)l);
	char c = 1;
	int ok = read(ready[0], &c, 1) == 1;
	int threads = kernel_threads();
	int held = __atomic_load_n(&alive, __ATOMIC_RELAXED);
	if (ok && write(go[1], &c, 1) != 1)
		ok = 0;
	int st;
	waitpid(pid, &st, 0);
	if (!ok) {
		/* The acceptor may wait for connections that never come. */
		fprintf(stderr, "the client failed before all connections were echoed\n");
		CHECK(0, "the client got every echo back, byte for byte");
		fflush(stdout);
		_exit(1);
	}
	pthread_join(at, NULL);
	CHECK(ok && WIFEXITED(st) && WEXITSTATUS(st) == 0, "the client got every echo back, byte for byte");
	CHECK(held == nconns && peak == nconns, "every connection had its server thread alive at once");
	CHECK(threads_are_gs(threads, nconns + 1), "a server thread per connection: Gs on a few kernel threads under the shim");
	fprintf(stderr, "%d kernel threads while %d connections were open\n", threads, held);
	while (__atomic_load_n(&alive, __ATOMIC_RELAXED) > 0)
		usleep(1000);
	return failures != 0;
}
