#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/select.h>
#include <unistd.h>

#include "bodies.h"

/* Two threads pass a byte back and forth over two pipes; each side waits
 * for its byte in poll or select together with three idle pipes, so the
 * wait is one on several fds, as an event loop's would be. */
struct pollpair {
	int ping[2], pong[2], idle[3][2];
	long rounds;
	int use_select;
};

static void wait_readable(struct pollpair *pp, int fd)
{
	if (!pp->use_select) {
		struct pollfd p[4] = { { pp->idle[0][0], POLLIN, 0 }, { pp->idle[1][0], POLLIN, 0 },
				       { pp->idle[2][0], POLLIN, 0 }, { fd, POLLIN, 0 } };
		if (poll(p, 4, -1) != 1 || !(p[3].revents & POLLIN))
			abort();
		return;
	}
	fd_set r;
	FD_ZERO(&r);
	int max = fd;
	for (int i = 0; i < 3; i++) {
		FD_SET(pp->idle[i][0], &r);
		max = pp->idle[i][0] > max ? pp->idle[i][0] : max;
	}
	FD_SET(fd, &r);
	if (select(max + 1, &r, NULL, NULL, NULL) != 1 || !FD_ISSET(fd, &r))
		abort();
}

static void pass(struct pollpair *pp, int in, int out)
{
	char c = 'x';
	wait_readable(pp, in);
	if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
		abort();
}

static void *pong(void *arg)
{
	struct pollpair *pp = arg;
	for (long i = 0; i < pp->rounds; i++)
		pass(pp, pp->ping[0], pp->pong[1]);
	return NULL;
}

static void pingpong(long iters, int use_select)
{
	struct pollpair pp = { .rounds = iters, .use_select = use_select };
	if (pipe(pp.ping) || pipe(pp.pong))
		abort();
	for (int i = 0; i < 3; i++)
		if (pipe(pp.idle[i]))
			abort();
	pthread_t t;
	pthread_create(&t, NULL, pong, &pp);
	for (long i = 0; i < iters; i++) {
		if (write(pp.ping[1], "x", 1) != 1)
			abort();
		char c;
		wait_readable(&pp, pp.pong[0]);
		if (read(pp.pong[0], &c, 1) != 1)
			abort();
	}
	pthread_join(t, NULL);
	int *fds[] = { pp.ping, pp.pong, pp.idle[0], pp.idle[1], pp.idle[2] };
	for (int i = 0; i < 5; i++)
		close(fds[i][0]), close(fds[i][1]);
}

/* One op = one round trip, each side waiting in poll on four pipes. */
void bench_poll_pingpong(long iters)
{
	pingpong(iters, 0);
}

/* The same waiting in select. */
void bench_select_pingpong(long iters)
{
	pingpong(iters, 1);
}
