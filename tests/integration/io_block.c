/* A thread blocked in the kernel must not stop the others.  Run with one
 * P (GMP_MAXPROCS=1): each scenario blocks a worker in a call, checks that
 * another thread keeps counting meanwhile, then unblocks the worker and
 * checks what the call returned.  Interposed calls park the G or hand the
 * P off through sysmon; fread on a pipe the shim never saw is rescued by
 * sysmon's probe. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blocked.h"
#include "check.h"

static int fds[2];
static char path[64];

static void *do_read(void *a)
{
	(void)a;
	char b[8];
	result = read(fds[0], b, sizeof b);
	return NULL;
}

static void write5(void)
{
	if (write(fds[1], "12345", 5) != 5)
		abort();
}

static void *do_fread(void *a)
{
	(void)a;
	FILE *f = fdopen(fds[0], "r");
	char b[8];
	result = (long)fread(b, 1, 5, f);
	fclose(f);
	return NULL;
}

static void *do_fifo_open(void *a)
{
	(void)a;
	int fd = open(path, O_RDONLY);
	char b[8];
	result = fd < 0 ? -1 : read(fd, b, sizeof b);
	close(fd);
	return NULL;
}

static void fifo_writer(void)
{
	int fd = open(path, O_WRONLY);
	if (write(fd, "abc", 3) != 3)
		abort();
	close(fd);
}

/* The child exits with 7 once it reads a byte from this pipe. */
static pid_t child;
static int release[2];
static void *do_waitpid(void *a)
{
	(void)a;
	int st;
	result = waitpid(child, &st, 0) == child && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return NULL;
}

static void release_child(void)
{
	if (write(release[1], "x", 1) != 1)
		abort();
}

static void *do_poll(void *a)
{
	(void)a;
	struct pollfd p = { .fd = fds[0], .events = POLLIN };
	result = poll(&p, 1, -1) == 1 && (p.revents & POLLIN);
	return NULL;
}

static void *do_select(void *a)
{
	(void)a;
	fd_set r;
	FD_ZERO(&r);
	FD_SET(fds[0], &r);
	result = select(fds[0] + 1, &r, NULL, NULL, NULL) == 1 && FD_ISSET(fds[0], &r);
	return NULL;
}

static void *do_epoll(void *a)
{
	(void)a;
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fds[0] }, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, fds[0], &ev);
	result = epoll_wait(ep, &out, 1, -1) == 1 && out.data.fd == fds[0];
	close(ep);
	return NULL;
}

static int lsock;
static struct sockaddr_in laddr;
static void *do_accept(void *a)
{
	(void)a;
	int c = accept(lsock, NULL, NULL);
	result = c >= 0;
	close(c);
	return NULL;
}

static void connect_once(void)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(s, (struct sockaddr *)&laddr, sizeof laddr) != 0)
		abort();
	close(s);
}

static void *do_recv(void *a)
{
	(void)a;
	char b[8];
	result = recv(fds[0], b, sizeof b, 0);
	return NULL;
}

int main(void)
{
	alarm(60);
	if (pipe(fds) != 0)
		return 1;
	CHECK(scenario(do_read, write5) && result == 5, "read on a pipe: others run, read returns 5");
	close(fds[0]), close(fds[1]);

	/* A pipe made behind the shim's back: it cannot poll what it never saw. */
	if (syscall(SYS_pipe2, fds, 0) != 0)
		return 1;
	CHECK(scenario(do_read, write5) && result == 5, "read on a raw-syscall pipe: others run");
	close(fds[0]), close(fds[1]);

	if (syscall(SYS_pipe2, fds, 0) != 0)
		return 1;
	CHECK(scenario(do_fread, write5) && result == 5, "fread inside stdio: others run");
	close(fds[1]);

	char dir[] = "/tmp/io_block.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/fifo", dir);
	if (mkfifo(path, 0600) != 0)
		return 1;
	CHECK(scenario(do_fifo_open, fifo_writer) && result == 3, "open of a FIFO: others run, data arrives");
	unlink(path);
	rmdir(dir);

	if (pipe(release) != 0)
		return 1;
	child = fork();
	if (child == 0) {
		char x;
		alarm(20);
		_exit(read(release[0], &x, 1) == 1 ? 7 : 1);
	}
	CHECK(scenario(do_waitpid, release_child) && result == 7, "waitpid: others run, status 7");
	close(release[0]), close(release[1]);

	if (pipe(fds) != 0)
		return 1;
	CHECK(scenario(do_poll, write5) && result == 1, "poll on a pipe: others run");
	char b[8];
	read(fds[0], b, 5);
	CHECK(scenario(do_select, write5) && result == 1, "select on a pipe: others run");
	read(fds[0], b, 5);
	CHECK(scenario(do_epoll, write5) && result == 1, "epoll_wait: others run");
	close(fds[0]), close(fds[1]);

	lsock = socket(AF_INET, SOCK_STREAM, 0);
	laddr = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof laddr;
	if (bind(lsock, (struct sockaddr *)&laddr, sizeof laddr) != 0 || listen(lsock, 8) != 0 ||
	    getsockname(lsock, (struct sockaddr *)&laddr, &len) != 0)
		return 1;
	CHECK(scenario(do_accept, connect_once) && result == 1, "accept: others run, a connection arrives");
	close(lsock);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
		return 1;
	CHECK(scenario(do_recv, write5) && result == 5, "recv on a socketpair: others run");
	return failures != 0;
}
