/* poll and select as the kernel runs them, without blocking the M while
 * every fd that could block is one we poll.  Each round reads the
 * descriptors' evgen words, probes with the real call and a zero timeout,
 * and if nothing is ready parks on all the descriptors at once
 * (gmp_netpoll_wait_many) until an edge, a close or the deadline; then it
 * probes again.  Regular files are always ready, so a set holding one
 * returns from the first probe.  A set with an fd we do not poll (a tty,
 * an inherited fd, one made behind our back) cannot be woken by our
 * poller: after the probe it blocks the M in the kernel through
 * entersyscall, with what is left of the timeout.
 *
 * Close of a watched fd: the kernel keeps waiting on the file it looked
 * up, and its next scan (another fd ready, or the timeout) reports the
 * closed fd: POLLNVAL in poll, ready in each of its sets in select.  Our
 * poller wakes the G at the close and gives that same report at once, as
 * every other wait of ours on a closed fd ends at once (EBADF for read,
 * accept, ...). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "netpoll.h"
#include "preempt.h"
#include "runtime.h"
#include "stack.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

#define STACK_NODES 32 /* beyond this, nodes are mmapped: poll is async-signal-safe, malloc is not */

/* The zero timeout of a probe, in writable memory: ppoll and pselect6
 * write the time left back, and Linux ignores a fault there only after
 * the call has done its work (qemu-user fails such a call with EFAULT).
 * Each probe has its own. */
#define ZERO_TIMEOUT (long)&(struct timespec){ 0, 0 }

/* What is left until deadline, for a call that blocks the M. */
static const struct timespec *remaining(int64_t deadline, struct timespec *ts)
{
	if (deadline < 0)
		return NULL;
	int64_t left = deadline - gmp_nanotime();
	if (left < 0)
		left = 0;
	ts->tv_sec = left / 1000000000LL;
	ts->tv_nsec = left % 1000000000LL;
	return ts;
}

/* Node storage for n fds: the caller's stack array, or a mapping. */
static struct pollwaiter *nodes_get(struct pollwaiter *stack, size_t n)
{
	if (n <= STACK_NODES)
		return stack;
	void *p = mmap(NULL, n * sizeof(struct pollwaiter), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static void nodes_put(struct pollwaiter *w, struct pollwaiter *stack, size_t n)
{
	if (w != stack && w != NULL)
		munmap(w, n * sizeof(struct pollwaiter));
}

/* Fills w[k] for fd; false if we cannot poll fd. */
static bool watch(struct pollwaiter *w, int k, int fd)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return false;
	w[k].pd = pd;
	w[k].gen = __atomic_load_n(&pd->evgen, __ATOMIC_SEQ_CST);
	return true;
}

struct pollargs {
	struct pollfd *fds;
};

static long poll_probe(void *arg)
{
	struct pollargs *a = arg;
	return gmp_syscall_intr(SYS_ppoll, (long)a->fds, 1, ZERO_TIMEOUT, 0, 8, 0);
}

/* The events our registration asks epoll for (netpoll.c), which it
 * reports with the same bits poll uses.  Others (POLLRDNORM, POLLWRBAND,
 * ...) are not in the mask the poller saw: their revents need a probe. */
#define EPOLL_ASKED (POLLIN | POLLPRI | POLLOUT | POLLRDHUP)
_Static_assert(EPOLLIN == POLLIN && EPOLLPRI == POLLPRI && EPOLLOUT == POLLOUT && EPOLLRDHUP == POLLRDHUP &&
		       EPOLLERR == POLLERR && EPOLLHUP == POLLHUP,
	       "epoll and poll report readiness with the same bits");

/* poll of one fd after an edge woke it: revents as the kernel's poll
 * computes them, the fd's readiness masked by what was asked and the
 * conditions always reported, from the readiness the edge carried. */
static long poll_answer(void *arg, uint32_t evmask)
{
	struct pollfd *p = ((struct pollargs *)arg)->fds;
	if (p->events & ~EPOLL_ASKED)
		return 0;
	short rev = (short)(evmask & ((uint16_t)p->events | POLLERR | POLLHUP));
	if (rev == 0)
		return 0;
	p->revents = rev;
	return 1;
}

/* What a read that says EAGAIN answers for: none of these is set while a
 * read of the fd finds nothing, urgent data aside (gmp_fd_found_empty). */
#define READ_EVENTS (POLLIN | POLLRDNORM | POLLPRI | POLLRDHUP)

/* A poll of one fd for reading, right after a read of it said EAGAIN, in
 * an array the kernel would find where we do: on the G's stack above this
 * frame (a bad pointer, read here before the kernel judged it, would
 * fault rather than fail with EFAULT). */
static bool read_after_empty(struct pollfd *fds, struct netpoll_look *look)
{
	struct g *gp = getg();
	uintptr_t a = (uintptr_t)fds;
	if (a < (uintptr_t)__builtin_frame_address(0) || !gmp_sp_in_g(gp, a) || !gmp_sp_in_g(gp, a + sizeof *fds - 1))
		return false;
	short ev = fds[0].events;
	return fds[0].fd >= 0 && (ev & ~READ_EVENTS) == 0 && gmp_fd_found_empty(fds[0].fd, look);
}

long gmp_poll(struct pollfd *fds, unsigned long n, int64_t deadline)
{
	struct timespec ts;
	if (getg() == NULL) /* a signal handler on an idle M: no G to park */
		return gmp_syscall6(SYS_ppoll, (long)fds, (long)n, (long)remaining(deadline, &ts), 0, 8, 0);
	gmp_preempt_point();
	/* A read of the fd that said EAGAIN just now is the look that must
	 * precede the park (MariaDB's connections recv so, then poll for
	 * each next statement).  Otherwise a first look before touching the
	 * array: a ready set costs one call, and a bad one (EFAULT, nfds
	 * past RLIMIT_NOFILE: EINVAL) is the kernel's to judge before we read
	 * it.  The words to park on are read only after it: unless the
	 * poller took an edge meanwhile (gmp_netpoll_epoch), it stands for
	 * the look before the park, which natively is the same one call. */
	struct netpoll_look look;
	long r = 0;
	if (!(n == 1 && deadline != 0 && read_after_empty(fds, &look))) {
		look = gmp_netpoll_look();
		r = gmp_syscall_intr(SYS_ppoll, (long)fds, (long)n, ZERO_TIMEOUT, 0, 8, 0);
		if (r != 0 || deadline == 0)
			return r;
	}
	if (n == 1 && gmp_pd_lookup(fds[0].fd)) {
		/* One fd: park on its evgen directly, no nodes needed. */
		gmp_getp();
		return gmp_fd_wait_ready(fds[0].fd, poll_probe, poll_answer, &(struct pollargs){ fds }, deadline, &look);
	}
	struct pollwaiter stack[STACK_NODES];
	struct pollwaiter *w = NULL;
	for (bool first = true;; first = false) {
		int k = 0;
		bool parkable = true;
		if (w == NULL && n > 0)
			w = nodes_get(stack, n);
		for (unsigned long i = 0; i < n && parkable; i++)
			if (fds[i].fd >= 0)
				parkable = w != NULL && watch(w, k++, fds[i].fd);
		if (!first || gmp_netpoll_epoch() != look.epoch)
			r = gmp_syscall_intr(SYS_ppoll, (long)fds, (long)n, ZERO_TIMEOUT, 0, 8, 0);
		if (r != 0)
			break;
		if (!parkable) {
			r = gmp_blocking_syscall6(SYS_ppoll, (long)fds, (long)n, (long)remaining(deadline, &ts), 0, 8,
						  0);
			break;
		}
		gmp_getp();
		int wr = gmp_netpoll_wait_many(w, k, deadline);
		if (wr == EINTR) {
			r = -EINTR; /* a handler ran: poll is never restarted */
			break;
		}
		if (wr == ETIMEDOUT) {
			/* A last look, as the kernel's scan after its timeout. */
			r = gmp_syscall_intr(SYS_ppoll, (long)fds, (long)n, ZERO_TIMEOUT, 0, 8, 0);
			break;
		}
	}
	nodes_put(w, stack, n);
	return r;
}

/* The bytes of an fd_set the kernel reads and writes for n fds. */
static size_t set_bytes(int n)
{
	return ((size_t)n + 63) / 64 * 8;
}

struct selsets {
	int n;
	size_t bytes;
	fd_set *in[3];  /* what is asked: the program's sets, copied */
	fd_set *out[3]; /* what the last look found */
};

static long select_probe(struct selsets *ss)
{
	for (int s = 0; s < 3; s++)
		if (ss->in[s])
			memcpy(ss->out[s], ss->in[s], ss->bytes);
	return gmp_syscall_intr(SYS_pselect6, ss->n, (long)ss->out[0], (long)ss->out[1], (long)ss->out[2],
				ZERO_TIMEOUT, 0);
}

/* Moves the asked-for fds that are no longer open from in to closed;
 * returns how many set bits moved. */
static int take_closed(struct selsets *ss, fd_set closed[3])
{
	int moved = 0;
	for (int fd = 0; fd < ss->n; fd++) {
		bool asked = false;
		for (int s = 0; s < 3; s++)
			asked |= ss->in[s] && FD_ISSET(fd, ss->in[s]);
		if (!asked || gmp_syscall(SYS_fcntl, fd, F_GETFD, 0) != -EBADF)
			continue;
		for (int s = 0; s < 3; s++) {
			if (ss->in[s] && FD_ISSET(fd, ss->in[s])) {
				FD_CLR(fd, ss->in[s]);
				FD_SET(fd, &closed[s]);
				moved++;
			}
		}
	}
	return moved;
}

/* A look after the wait began.  An fd closed meanwhile makes the kernel's
 * entry check fail (EBADF), but its scan inside a wait reports such an fd
 * ready in every set that asks for it (its mask is POLLNVAL), counting
 * each: so report those that way, stop asking about them, and look at
 * the rest. */
static long select_rescan(struct selsets *ss)
{
	fd_set closed[3];
	for (int s = 0; s < 3; s++)
		FD_ZERO(&closed[s]);
	int marks = 0;
	long r;
	while ((r = select_probe(ss)) == -EBADF) {
		int m = take_closed(ss, closed);
		if (m == 0)
			return r;
		marks += m;
	}
	if (r < 0)
		return r;
	for (int s = 0; s < 3; s++)
		if (ss->in[s])
			for (int fd = 0; fd < ss->n; fd++)
				if (FD_ISSET(fd, &closed[s]))
					FD_SET(fd, ss->out[s]);
	return r + marks;
}

long gmp_select(int n, fd_set *r, fd_set *w, fd_set *e, int64_t deadline)
{
	struct timespec ts;
	fd_set *user[3] = { r, w, e };
	if (getg() == NULL || n < 0 || n > FD_SETSIZE)
		return gmp_blocking_syscall6(SYS_pselect6, n, (long)r, (long)w, (long)e,
					     (long)remaining(deadline, &ts), 0);
	/* The probes overwrite their sets: they run on copies of what the
	 * program asked for, and only the final result goes back. */
	fd_set inbuf[3], outbuf[3];
	struct selsets ss = { .n = n, .bytes = set_bytes(n) };
	for (int s = 0; s < 3; s++) {
		ss.in[s] = user[s] ? &inbuf[s] : NULL;
		ss.out[s] = user[s] ? &outbuf[s] : NULL;
		if (user[s])
			memcpy(ss.in[s], user[s], ss.bytes);
	}
	/* One node per fd asked about: the sets only shrink from here. */
	size_t count = 0;
	for (int fd = 0; fd < n; fd++)
		count += (r && FD_ISSET(fd, r)) || (w && FD_ISSET(fd, w)) || (e && FD_ISSET(fd, e));
	struct pollwaiter nodes[STACK_NODES];
	struct pollwaiter *nw = nodes_get(nodes, count);
	long res;
	for (bool first = true;; first = false) {
		int k = 0;
		bool parkable = nw != NULL;
		for (int fd = 0; fd < n && parkable; fd++) {
			bool want = false;
			for (int s = 0; s < 3; s++)
				want |= ss.in[s] && FD_ISSET(fd, ss.in[s]);
			if (want)
				parkable = watch(nw, k++, fd);
		}
		res = first ? select_probe(&ss) : select_rescan(&ss);
		if (res != 0 || deadline == 0)
			break;
		if (!parkable) {
			for (int s = 0; s < 3; s++)
				if (ss.in[s])
					memcpy(ss.out[s], ss.in[s], ss.bytes);
			res = gmp_blocking_syscall6(SYS_pselect6, n, (long)ss.out[0], (long)ss.out[1],
						    (long)ss.out[2], (long)remaining(deadline, &ts), 0);
			break;
		}
		gmp_getp();
		int wr = gmp_netpoll_wait_many(nw, k, deadline);
		if (wr == EINTR) {
			res = -EINTR; /* a handler ran: select is never restarted */
			break;
		}
		if (wr == ETIMEDOUT) {
			res = select_rescan(&ss); /* the kernel's scan after its timeout */
			break;
		}
	}
	nodes_put(nw, nodes, count);
	if (res >= 0)
		for (int s = 0; s < 3; s++)
			if (user[s])
				memcpy(user[s], ss.out[s], ss.bytes);
	return res;
}
