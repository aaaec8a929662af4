/* An action on an fd done 50 ms later by another thread, while the test's
 * thread waits for it (poll, select, epoll_wait); and the actions the
 * poll tests use. */
#ifndef LATER_H
#define LATER_H

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static int act_fd;
static void (*act_fn)(int);

static void *later(void *arg)
{
	(void)arg;
	usleep(50000);
	act_fn(act_fd);
	return NULL;
}

/* Starts the thread that calls fn(fd) in 50 ms; join it after the wait. */
static pthread_t after(void (*fn)(int), int fd)
{
	pthread_t t;
	act_fn = fn;
	act_fd = fd;
	if (pthread_create(&t, NULL, later, NULL) != 0)
		abort();
	return t;
}

static void write1(int fd)
{
	if (write(fd, "x", 1) != 1)
		abort();
}

static void drain(int fd)
{
	char buf[8192];
	if (read(fd, buf, sizeof buf) <= 0) /* room for a write: POLLOUT */
		abort();
}

static void send_oob(int fd)
{
	if (send(fd, "!", 1, MSG_OOB) != 1)
		abort();
}

static void close_fd(int fd)
{
	close(fd);
}

#endif
