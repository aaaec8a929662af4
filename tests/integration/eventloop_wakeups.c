/* An event loop in epoll_wait (redis-server's main thread, memcached's
 * workers), its events every 2 ms: the process's threads together should
 * wake about once per event, as natively.  The runtime's own threads must
 * not add a wake-up of their own every few events: sysmon, looking every
 * 10 ms while the loop's P moved between its looks, added a tenth of a
 * wake-up per request to redis-server at 1,000 requests a second.
 *
 * Wake-ups are the process's voluntary context switches (all its kernel
 * threads: the shim's too), counted over 300 events after 50. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "check.h"

#define EVENTS 300
/* Events before the count starts: the runtime's threads settle first
 * (sysmon backs off from 20 us over its first looks). */
#define WARMUP 50

static long loops, switches;

static void *event_loop(void *arg)
{
	(void)arg;
	int tfd = timerfd_create(CLOCK_MONOTONIC, 0), ep = epoll_create1(0);
	struct itimerspec its = { { 0, 2000000 }, { 0, 2000000 } };
	struct epoll_event ev = { .events = EPOLLIN };
	if (tfd < 0 || ep < 0 || timerfd_settime(tfd, 0, &its, NULL) != 0 || epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev) != 0)
		return NULL;
	long before = 0, events = -WARMUP;
	while (events < EVENTS) {
		struct epoll_event got;
		if (epoll_wait(ep, &got, 1, -1) != 1)
			continue;
		uint64_t n;
		if (read(tfd, &n, sizeof n) == sizeof n)
			events += (long)n;
		if (events < 0)
			continue;
		if (before == 0)
			before = process_voluntary_switches();
		else
			loops++;
	}
	switches = process_voluntary_switches() - before;
	close(tfd);
	close(ep);
	return NULL;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, event_loop, NULL);
	pthread_join(t, NULL);
	long extra = switches - loops;
	int ok = loops > 0 && extra <= loops / 20 + 5;
	if (!ok)
		fprintf(stderr, "%ld wake-ups of the loop, %ld voluntary switches of the process\n", loops, switches);
	CHECK(ok, "an event loop's process wakes about once per event");
	return failures != 0;
}
