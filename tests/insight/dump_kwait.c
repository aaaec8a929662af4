/* Threads in kernel waits (shim/syscall.c): one asleep, one in an event
 * loop's epoll_wait on its own epoll fd, with nothing else to run, so
 * that under the shim each sleeps in the kernel with its P given up;
 * main in pause().  Prints "ready" once both are started; check-dump-kwait
 * then gives them a moment and asks for a GMP_DUMP_SIGNAL dump.  Built with
 * frame pointers and -rdynamic so that every frame resolves. */
#include <pthread.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <unistd.h>

__attribute__((noinline)) void *blocked_in_sleep(void *arg)
{
	(void)arg;
	for (;;)
		sleep(1000);
	return NULL;
}

__attribute__((noinline)) void *blocked_in_epoll(void *arg)
{
	(void)arg;
	int ep = epoll_create1(0);
	struct epoll_event ev;
	for (;;)
		epoll_wait(ep, &ev, 1, -1);
	return NULL;
}

int main(void)
{
	/* A thread sleeps in the kernel only while nothing is queued behind
	 * it: the sleeper is made first (the last one made runs first, and
	 * an event loop's wait does not look at the queue), and main waits
	 * in pause(), not in sleeps whose wake-ups would queue it. */
	pthread_t t;
	pthread_create(&t, NULL, blocked_in_sleep, NULL);
	pthread_create(&t, NULL, blocked_in_epoll, NULL);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
