/* A thread per connection, blocked in read on its socket (python's
 * http.server, MariaDB's connections, the echo server), its requests every
 * 2 ms: the process's threads together should wake about once per
 * request, as natively.  Under the shim such a thread parks on the
 * netpoller and an idle M waits in epoll for it; sysmon, which polls when
 * nobody else does, looked every 10 ms all the same while any thread was
 * parked there: a fifth of a wake-up per request here, 100 a second in
 * every idle server of this kind.
 *
 * Wake-ups are the process's voluntary context switches (all its kernel
 * threads: the shim's too), counted over 300 requests after 50.  The
 * requests come from a child process, which writes a byte to the reader's
 * socket at each expiry of its timerfd. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define REQUESTS 300
#define WARMUP 50

static int sv[2];
static long reads, switches;

static void *reader(void *arg)
{
	(void)arg;
	long before = 0;
	char c;
	for (long n = -WARMUP; n < REQUESTS; n++) {
		if (read(sv[1], &c, 1) != 1)
			return NULL;
		if (n == 0)
			before = process_voluntary_switches();
		else if (n > 0)
			reads++;
	}
	switches = process_voluntary_switches() - before;
	return NULL;
}

int main(void)
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
		struct itimerspec its = { { 0, 2000000 }, { 0, 2000000 } };
		if (tfd < 0 || timerfd_settime(tfd, 0, &its, NULL) != 0)
			_exit(1);
		for (long sent = 0; sent < WARMUP + REQUESTS;) {
			uint64_t n;
			if (read(tfd, &n, sizeof n) != sizeof n)
				continue;
			for (; n > 0 && sent < WARMUP + REQUESTS; n--, sent++)
				if (write(sv[0], "r", 1) != 1)
					_exit(1);
		}
		_exit(0);
	}
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	pthread_join(t, NULL);
	int status;
	waitpid(child, &status, 0);
	long extra = switches - reads;
	int ok = reads > 0 && extra <= reads / 20 + 5 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (!ok)
		fprintf(stderr, "%ld requests, %ld voluntary switches of the process\n", reads, switches);
	CHECK(ok, "a thread blocked in read: its process wakes about once per request");
	return failures != 0;
}
