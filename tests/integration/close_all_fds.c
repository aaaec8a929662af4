/* Daemon habits with descriptors: close every fd it does not know (a loop
 * of close() up to the limit, close_range, closefrom, dup2 of /dev/null
 * over every number), in the process and in a fork child, while threads
 * wait in read, poll and epoll_wait on pipes it keeps.  The runtime's own
 * descriptors (the netpoller's) must survive all of it without taking a
 * number from the program, and every wait must still end when its data
 * comes.  Natively these are the same calls on a process with nothing
 * else open. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <poll.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define WAITERS 3

static int pipes[WAITERS][2];
static int got[WAITERS];
static int ep = -1;       /* the epoll waiter's instance */
static int keep_also = -1; /* a fork child's pipe to its parent */

static bool kept(int fd)
{
	if (fd <= 2 || fd == ep || fd == keep_also)
		return true;
	for (int i = 0; i < WAITERS; i++)
		if (fd == pipes[i][0] || fd == pipes[i][1])
			return true;
	return false;
}

static void *reader(void *arg)
{
	int i = (int)(long)arg;
	char c;
	got[i] = read(pipes[i][0], &c, 1) == 1 && c == 'x';
	return NULL;
}

static void *poller(void *arg)
{
	int i = (int)(long)arg;
	struct pollfd p = { .fd = pipes[i][0], .events = POLLIN };
	char c;
	got[i] = poll(&p, 1, 30000) == 1 && read(pipes[i][0], &c, 1) == 1;
	return NULL;
}

static void *epoller(void *arg)
{
	int i = (int)(long)arg;
	struct epoll_event out;
	char c;
	got[i] = epoll_wait(ep, &out, 1, 30000) == 1 && read(pipes[i][0], &c, 1) == 1;
	return NULL;
}

static void *(*const waiters[WAITERS])(void *) = { reader, poller, epoller };

/* Starts the three waiters, lets them block, runs the habit, then feeds
 * them: each must get its byte. */
static bool across(void (*habit)(void))
{
	pthread_t t[WAITERS];
	for (int i = 0; i < WAITERS; i++) {
		got[i] = 0;
		pthread_create(&t[i], NULL, waiters[i], (void *)(long)i);
	}
	usleep(50000);
	habit();
	for (int i = 0; i < WAITERS; i++)
		if (write(pipes[i][1], "x", 1) != 1)
			return false;
	bool ok = true;
	for (int i = 0; i < WAITERS; i++) {
		pthread_join(t[i], NULL);
		ok = ok && got[i];
	}
	if (!ok)
		fprintf(stderr, "waiters: read %d poll %d epoll %d\n", got[0], got[1], got[2]);
	return ok;
}

static int limit(void)
{
	long m = sysconf(_SC_OPEN_MAX);
	return m > 0 && m < 65536 ? (int)m : 65536;
}

static void close_loop(void)
{
	for (int fd = 3; fd < limit(); fd++)
		if (!kept(fd))
			close(fd);
}

/* close_range over every stretch between the fds it keeps. */
static void close_ranges(void)
{
	unsigned lo = 3;
	for (int fd = 3; fd < limit(); fd++) {
		if (kept(fd)) {
			if ((unsigned)fd > lo)
				close_range(lo, (unsigned)fd - 1, 0);
			lo = (unsigned)fd + 1;
		}
	}
	close_range(lo, ~0U, 0);
}

static void close_from(void)
{
	int top = ep;
	for (int i = 0; i < WAITERS; i++)
		top = pipes[i][1] > top ? pipes[i][1] : top;
	for (int fd = 3; fd < top; fd++)
		if (!kept(fd))
			close(fd);
	closefrom(top + 1);
}

/* Over every number a select() program may use, and over every fd open
 * that the program did not open itself (under the shim: the runtime's,
 * which must move out of the way; natively: none). */
static void dev_null_over_all(void)
{
	int null = open("/dev/null", O_RDWR);
	int top = limit() < 4096 ? limit() : 4096;
	for (int fd = 3; fd < top; fd++)
		if (!kept(fd) && fd != null)
			dup2(null, fd);
	DIR *d = opendir("/proc/self/fd");
	int others[64], n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) && n < 64) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd >= top && fd != dirfd(d))
			others[n++] = fd;
	}
	if (d)
		closedir(d);
	for (int i = 0; i < n; i++)
		dup2(null, others[i]);
	/* And close them again, as a daemon reopening its logs would. */
	for (int fd = 3; fd < limit(); fd++)
		if (!kept(fd))
			close(fd);
}

static void raw_close_loop(void)
{
	for (int fd = 3; fd < limit(); fd++)
		if (!kept(fd))
			syscall(SYS_close, fd);
}

/* A close the shim cannot see: the system call instruction itself, as a
 * static library or hand-written assembly makes it.  The runtime must
 * notice that its descriptors are gone and make new ones. */
static long raw_close(int fd)
{
#if defined(__x86_64__)
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_close), "D"((long)fd) : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_close, x0 __asm__("x0") = fd;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8) : "memory");
	return x0;
#else
#error "raw_close: no inline system call for this architecture"
#endif
}

static void asm_close_loop(void)
{
	for (int fd = 3; fd < limit(); fd++)
		if (!kept(fd))
			raw_close(fd);
}

/* The lowest free number is still the program's: nothing of the runtime
 * sits below its fds. */
static int lowest_free(void)
{
	int fd = open("/dev/null", O_RDONLY);
	close(fd);
	return fd;
}

/* A thread that runs without entering the scheduler is one the runtime's
 * sysmon looks at through /proc once a ms (shim/rescue.c): while one
 * spins, main opens and closes /dev/null over and over, and each open
 * must get the lowest free number, want, as natively.  The count of
 * opens that got another number; the loop stops at the first. */
static volatile int spin_stop;

static void *spinner(void *arg)
{
	(void)arg;
	spin_until(&spin_stop);
	return NULL;
}

static long opens_not_lowest(int want, long rounds)
{
	pthread_t t;
	spin_stop = 0;
	pthread_create(&t, NULL, spinner, NULL);
	long bad = 0;
	for (long i = 0; i < rounds && bad == 0; i++) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd != want) {
			fprintf(stderr, "open number %ld gave %d, the lowest free is %d\n", i, fd, want);
			bad++;
		}
		close(fd);
	}
	spin_stop = 1;
	pthread_join(t, NULL);
	return bad;
}

static void make_pipes(void)
{
	for (int i = 0; i < WAITERS; i++)
		if (pipe(pipes[i]) != 0)
			perror("pipe");
	ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = { .events = EPOLLIN };
	epoll_ctl(ep, EPOLL_CTL_ADD, pipes[WAITERS - 1][0], &ev);
}

int main(void)
{
	/* Close everything first, as a daemon's start does; then the pipes
	 * take the lowest numbers, 3 to 8, in both modes. */
	for (int fd = 3; fd < limit(); fd++)
		close(fd);
	make_pipes();
	CHECK(pipes[0][0] == 3 && pipes[WAITERS - 1][1] == 2 + 2 * WAITERS, "the program's pipes got fds 3 to 8");
	CHECK(ep == 3 + 2 * WAITERS && lowest_free() == 4 + 2 * WAITERS, "its epoll instance got 9, the next fd is 10");
	/* Before the raw closes below: the netpoller, finding its fds gone,
	 * makes new ones, which hold the lowest free number for an instant. */
	CHECK(opens_not_lowest(4 + 2 * WAITERS, test_work(300000)) == 0,
	      "open() over and over beside a thread that runs on: the lowest free fd each time, 10");

	CHECK(across(close_loop), "close() of every other fd up to the limit: waits go on");
	CHECK(across(close_ranges), "close_range over every other fd: waits go on");
	CHECK(across(close_from), "closefrom above the kept fds: waits go on");
	CHECK(across(dev_null_over_all), "dup2 of /dev/null over every other fd: waits go on");
	CHECK(across(raw_close_loop), "syscall(SYS_close) of every other fd: waits go on");
	CHECK(across(asm_close_loop), "a raw close system call on every other fd: waits go on");
	CHECK(across(close_loop), "and after that, as before");
	CHECK(lowest_free() == 4 + 2 * WAITERS, "still nothing below: the next fd is 10");

	/* A fork child that closes everything but its pipe, then works with
	 * threads; the parent's pipe end must be intact (a write, not EPIPE). */
	int toparent[2];
	if (pipe(toparent) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		keep_also = toparent[1];
		for (int fd = 3; fd < limit(); fd++)
			if (fd != keep_also)
				close(fd);
		make_pipes();
		bool ok = across(close_loop) && across(close_ranges);
		char c = ok ? 'y' : 'n';
		_exit(write(toparent[1], &c, 1) == 1 && ok ? 0 : 1);
	}
	close(toparent[1]);
	char c = 0;
	bool read_ok = read(toparent[0], &c, 1) == 1;
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(read_ok && c == 'y' && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a fork child closing every fd, then waiting in threads: works, reports through its pipe");
	CHECK(across(close_loop), "the parent's waits after the child: go on");
	return failures != 0;
}
