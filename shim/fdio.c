/* Blocking I/O on a polled fd without blocking the M: try the call on
 * the non-blocking description; on EAGAIN park the G until the poller
 * sees the fd ready, and try again.  Calls on fds we do not poll (files,
 * ttys, fds inherited from the parent) block the M in the kernel between
 * entersyscall and exitsyscall instead. */
#include <errno.h>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>

#include "compat/debug.h"
#include "cancel.h"
#include "foreign.h"
#include "netpoll.h"
#include "preempt.h"
#include "rtsig.h"
#include "runtime.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

/* Outside any G (a foreign thread, shim/foreign.c, or a signal handler
 * on an idle M): block the thread in poll, as the blocking fd the program
 * believes in would. */
static long thread_blocking(int fd, int mode, long nr, long a1, long a2, long a3, long a4, long a5)
{
	for (;;) {
		long r = gmp_syscall6(nr, fd, a1, a2, a3, a4, a5);
		if (r != -EAGAIN)
			return r;
		struct pollfd p = { .fd = fd, .events = mode == 'r' ? POLLIN : POLLOUT };
		gmp_syscall6(SYS_ppoll, (long)&p, 1, 0, 0, 8, 0);
	}
}

/* What a read-like call on a stream asks for: read, readv, and recv and
 * recvmsg without flags (a peek leaves the data there); -1 for others. */
static long asked(long nr, long a1, long a2, long a3)
{
	const struct iovec *iov = NULL;
	long n = 0, cnt = 0;
	switch (nr) {
	case SYS_read:
		return a2;
	case SYS_recvfrom:
		return a3 == 0 ? a2 : -1;
	case SYS_readv:
		iov = (const struct iovec *)a1;
		cnt = a2;
		break;
	case SYS_recvmsg:
		if (a2 != 0)
			return -1;
		iov = ((const struct msghdr *)a1)->msg_iov;
		cnt = (long)((const struct msghdr *)a1)->msg_iovlen;
		break;
	default:
		return -1;
	}
	for (long i = 0; i < cnt; i++)
		n += (long)iov[i].iov_len;
	return n;
}

/* A read of a byte stream that returned less than asked for left the
 * stream empty (the kernel copies until it runs out): what comes next
 * arrives after the read began and brings an edge, which bumps rgen past
 * val, the value read before the call.  A reader that
 * finds rgen still at that value can park without the read that would
 * say EAGAIN: one system call less per request of a request-response
 * connection.  An end of file or error is no data but a state a read
 * reports once the data is gone; the poller clears PD_STREAM when an
 * edge says so (netpoll.c), and a reader checks it after reading rgen. */
static void note_drained(struct polldesc *pd, long nr, long a1, long a2, long a3, long r, uint32_t val)
{
	if (r > 0 && r < asked(nr, a1, a2, a3))
		__atomic_store_n(&pd->rdrained, val, __ATOMIC_RELAXED);
}

/* A read that said EAGAIN where it does not park (MSG_DONTWAIT, an fd the
 * program made non-blocking) looked at the fd as a probe would have, the
 * way Go's read before its netpoller parks does: a poll for reading that
 * follows (MariaDB's connections recv so, then poll; so do clients of
 * non-blocking sockets) can park on that look rather than poll first,
 * while rgen still holds gen, read before the call.  A read that got
 * anything (data, an end of file, an error) takes it back: a poll after
 * another thread read data that came since must find the fd empty, not
 * report that data from the edge it brought (gmp_fd_wait_ready's answer
 * trusts an edge harvested by a poll that began after calls). */
static void note_read(struct polldesc *pd, long r, uint32_t gen, uint32_t calls)
{
	if (r == -EAGAIN)
		__atomic_store_n(&pd->rempty, (uint64_t)calls << 32 | gen, __ATOMIC_RELEASE);
	else if (__atomic_load_n(&pd->rempty, __ATOMIC_RELAXED) != 0)
		__atomic_store_n(&pd->rempty, 0, __ATOMIC_RELEASE);
}

static long read_nowait(struct polldesc *pd, int fd, long nr, long a1, long a2, long a3, long a4, long a5)
{
	uint32_t gen = __atomic_load_n(&pd->rgen, __ATOMIC_SEQ_CST);
	uint32_t calls = __atomic_load_n(&gmp_netpoll_calls, __ATOMIC_SEQ_CST);
	long r = gmp_syscall6(nr, fd, a1, a2, a3, a4, a5);
	note_read(pd, r, gen, calls);
	return r;
}

long gmp_fd_read_nowait(int fd, long nr, long a1, long a2, long a3, long a4, long a5)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	return pd ? read_nowait(pd, fd, nr, a1, a2, a3, a4, a5) : gmp_syscall6(nr, fd, a1, a2, a3, a4, a5);
}

bool gmp_fd_found_empty(int fd, struct netpoll_look *look)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL || gmp_debug.noreadlook)
		return false;
	/* The epoch first: an edge bumps it before rgen, so one that comes
	 * after rgen is read here moves it past what the park compares. */
	uint32_t epoch = gmp_netpoll_epoch();
	uint64_t v = __atomic_load_n(&pd->rempty, __ATOMIC_ACQUIRE);
	if (v == 0 || (uint32_t)v != __atomic_load_n(&pd->rgen, __ATOMIC_SEQ_CST))
		return false;
	/* What the read passed over may be there since before it (after it,
	 * its edge would have moved rgen). */
	if (__atomic_load_n(&pd->flags, __ATOMIC_ACQUIRE) & PD_ASIDE)
		return false;
	*look = (struct netpoll_look){ epoch, (uint32_t)(v >> 32) };
	return true;
}

/* A read of a signalfd: the records of the runtime's own requests are
 * taken out (one can be left pending on an M that blocks the signal the
 * runtime moved off: gmp_rtsig_take_sync).  -EAGAIN if nothing is left. */
static long signalfd_read(long nr, long buf, long r)
{
	if (nr != SYS_read || r <= 0)
		return r;
	struct signalfd_siginfo *si = (struct signalfd_siginfo *)buf;
	long n = r / (long)sizeof *si, kept = 0;
	for (long i = 0; i < n; i++)
		if (!gmp_sigfd_is_runtime(si[i].ssi_code, si[i].ssi_pid, si[i].ssi_ptr))
			si[kept++] = si[i];
	return kept ? kept * (long)sizeof *si : -EAGAIN;
}

long gmp_fd_syscall(int fd, int mode, long nr, long a1, long a2, long a3, long a4, long a5)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return gmp_blocking_syscall6(nr, fd, a1, a2, a3, a4, a5);
	uint32_t flags = __atomic_load_n(&pd->flags, __ATOMIC_ACQUIRE);
	if (__builtin_expect(gmp_fd_alien, 0)) /* touches no state of the fd */
		return flags & PD_USERNB ? gmp_syscall6(nr, fd, a1, a2, a3, a4, a5)
					 : thread_blocking(fd, mode, nr, a1, a2, a3, a4, a5);
	if (flags & PD_USERNB) {
		if (flags & PD_SIGNALFD)
			return signalfd_read(nr, a1, gmp_syscall6(nr, fd, a1, a2, a3, a4, a5));
		return mode == 'r' ? read_nowait(pd, fd, nr, a1, a2, a3, a4, a5)
				   : gmp_syscall6(nr, fd, a1, a2, a3, a4, a5);
	}
	struct g *gp = getg();
	if (gp == NULL)
		return thread_blocking(fd, mode, nr, a1, a2, a3, a4, a5);
	gmp_preempt_point();
	gmp_getp(); /* a call nested in a blocking one parks like any other */
	uint32_t seq = __atomic_load_n(&pd->fdseq, __ATOMIC_ACQUIRE);
	uint32_t *gen = mode == 'r' ? &pd->rgen : &pd->wgen;
	int64_t timeout = mode == 'r' ? pd->rtimeout : pd->wtimeout;
	int64_t deadline = timeout > 0 ? gmp_nanotime() + timeout : -1;
	if (gp->cancelpoint == 0)
		gp->sigrestart = true; /* a call that is no cancellation point (sendfile) begins */
	for (;;) {
		/* Afresh before every call: a G switched out above or parked
		 * below may come back after another thread forked (PD_FORKED),
		 * and a call on the description the child has made blocking
		 * since would sleep in the kernel holding the P (the only one:
		 * a hang wherever sysmon cannot see the call, as under qemu). */
		flags = __atomic_load_n(&pd->flags, __ATOMIC_ACQUIRE);
		bool stream = mode == 'r' && (flags & (PD_STREAM | PD_FORKED)) == PD_STREAM && !gmp_debug.nodrainpark;
		uint32_t val = __atomic_load_n(gen, __ATOMIC_ACQUIRE);
		long r;
		if (stream && val == __atomic_load_n(&pd->rdrained, __ATOMIC_RELAXED) &&
		    (__atomic_load_n(&pd->flags, __ATOMIC_ACQUIRE) & PD_STREAM)) {
			r = -EAGAIN;
			gp->m->p->ctr.drainparks++;
		} else {
			r = flags & PD_FORKED ? gmp_blocking_syscall6(nr, fd, a1, a2, a3, a4, a5)
					      : gmp_syscall6(nr, fd, a1, a2, a3, a4, a5);
			if (flags & PD_SIGNALFD)
				r = signalfd_read(nr, a1, r);
		}
		if (r != -EAGAIN) {
			if (stream)
				note_drained(pd, nr, a1, a2, a3, r, val);
			if (mode == 'r')
				note_read(pd, r, 0, 0);
			return r;
		}
		int w = gmp_netpoll_wait(pd, gen, val, seq, deadline, mode == 'r' ? WAIT_IO_READ : WAIT_IO_WRITE);
		if (w == ETIMEDOUT)
			return -EAGAIN; /* what SO_RCVTIMEO/SO_SNDTIMEO give */
		if (w == EBADF)
			return -EBADF;
		/* A handler ran (a signal sent to this thread): the call ends
		 * with EINTR unless the handler restarts calls and the socket
		 * has no timeout (signal(7)). */
		if (w == EINTR && (!gp->sigrestart || deadline >= 0 || gmp_cancel_requested(gp)))
			return -EINTR;
	}
}

/* A write to a blocking stream returns only when everything is written
 * (or on an error or timeout after part of it): the same loop over the
 * non-blocking description.  buf and len are the call's a1 and a2. */
long gmp_fd_write_all(int fd, long nr, const char *buf, size_t len, long a3, long a4, long a5)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return gmp_blocking_syscall6(nr, fd, (long)buf, (long)len, a3, a4, a5);
	if (pd->flags & PD_USERNB)
		return gmp_syscall6(nr, fd, (long)buf, (long)len, a3, a4, a5);
	size_t done = 0;
	for (;;) {
		long r = gmp_fd_syscall(fd, 'w', nr, (long)(buf + done), (long)(len - done), a3, a4, a5);
		if (r < 0)
			return done > 0 ? (long)done : r;
		done += (size_t)r;
		if (done >= len || r == 0)
			return (long)done;
	}
}

/* A blocking connect outside any G: the handshake waited for in poll. */
static long thread_connect(int fd, const void *addr, unsigned len)
{
	/* EAGAIN: a full AF_UNIX backlog, waited out as any blocking call. */
	long r = thread_blocking(fd, 'w', SYS_connect, (long)addr, len, 0, 0, 0);
	if (r != -EINPROGRESS)
		return r;
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	while ((r = gmp_syscall6(SYS_ppoll, (long)&p, 1, 0, 0, 8, 0)) == -EINTR)
		;
	if (r < 0)
		return r;
	int err = 0;
	socklen_t elen = sizeof err;
	r = gmp_syscall6(SYS_getsockopt, fd, SOL_SOCKET, SO_ERROR, (long)&err, (long)&elen, 0);
	return r < 0 ? r : err ? -err : 0;
}

/* connect on a polled socket: a blocking connect waits for the handshake,
 * which on the non-blocking description is EINPROGRESS, then writable. */
long gmp_fd_connect(int fd, const void *addr, unsigned len)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return gmp_blocking_syscall(SYS_connect, fd, addr, len);
	if (pd->flags & PD_USERNB)
		return gmp_syscall(SYS_connect, fd, addr, len);
	if (getg() == NULL)
		return thread_connect(fd, addr, len);
	gmp_getp();
	uint32_t seq = __atomic_load_n(&pd->fdseq, __ATOMIC_ACQUIRE);
	int64_t deadline = pd->wtimeout > 0 ? gmp_nanotime() + pd->wtimeout : -1;
	for (;;) {
		uint32_t val = __atomic_load_n(&pd->wgen, __ATOMIC_ACQUIRE);
		long r = gmp_syscall(SYS_connect, fd, addr, len);
		if (r != -EAGAIN && r != -EINPROGRESS)
			return r;
		if (r == -EINPROGRESS) {
			/* Wait for the outcome, then read it from SO_ERROR. */
			for (;;) {
				int w = gmp_netpoll_wait(pd, &pd->wgen, val, seq, deadline, WAIT_IO_WRITE);
				if (w == ETIMEDOUT)
					return -EINPROGRESS;
				if (w == EBADF)
					return -EBADF;
				if (w == EINTR && gmp_cancel_requested(getg()))
					return -EINTR; /* the connect goes on, as natively */
				val = __atomic_load_n(&pd->wgen, __ATOMIC_ACQUIRE);
				struct pollfd p = { .fd = fd, .events = POLLOUT };
				if (gmp_syscall_intr(SYS_ppoll, (long)&p, 1, (long)&(struct timespec){ 0, 0 }, 0, 8, 0) > 0)
					break;
			}
			int err = 0;
			socklen_t elen = sizeof err;
			long r2 = gmp_syscall6(SYS_getsockopt, fd, SOL_SOCKET, SO_ERROR, (long)&err, (long)&elen, 0);
			if (r2 < 0)
				return r2;
			return err ? -err : 0;
		}
		/* EAGAIN: a full AF_UNIX backlog, which a blocking connect waits out. */
		int w = gmp_netpoll_wait(pd, &pd->wgen, val, seq, deadline, WAIT_IO_WRITE);
		if (w == ETIMEDOUT)
			return -EAGAIN;
		if (w == EBADF)
			return -EBADF;
	}
}

/* Waits until a raw call that reports readiness (poll on one fd, epoll_wait
 * on the program's epoll fd) finds something: probe runs the call without
 * blocking and returns its result; while it returns 0 the G parks on the
 * fd's event word until deadline.  Returns the probe's last result, 0 at
 * the deadline.
 *
 * Woken by an edge, the G first asks answer, given the readiness the
 * poller harvested (pd->evmask) if the poll that harvested it began after
 * the look before the last probe: then every read of this G's that could
 * have taken what it saw came before it, and it is what a poll of the fd
 * would have seen during the wait.  (One that began earlier may have seen
 * data this G has read since, its report held up on a preempted M: it
 * would be a spurious POLLIN.)  That saves the probe after most wakes: a
 * thread waiting in poll for its next request made two calls where
 * natively it makes one. */
long gmp_fd_wait_ready(int fd, long (*probe)(void *), long (*answer)(void *, uint32_t), void *arg, int64_t deadline,
		       const struct netpoll_look *probed)
{
	struct polldesc *pd = gmp_pd_lookup(fd);
	uint32_t seq = __atomic_load_n(&pd->fdseq, __ATOMIC_ACQUIRE);
	struct netpoll_look last = probed ? *probed : (struct netpoll_look){ 0, 0 };
	for (;;) {
		uint32_t val = __atomic_load_n(&pd->evgen, __ATOMIC_ACQUIRE);
		if (probed == NULL || gmp_netpoll_epoch() != probed->epoch) {
			last = gmp_netpoll_look();
			long r = probe(arg);
			if (r != 0 || deadline == 0)
				return r;
		}
		probed = NULL;
		/* At the deadline, or with the fd gone from under us, one
		 * last probe reports it as the kernel would (0, POLLNVAL, EBADF). */
		int w = gmp_netpoll_wait(pd, &pd->evgen, val, seq, deadline, WAIT_IO_READ);
		if (w == EINTR)
			return -EINTR; /* poll and epoll_wait are never restarted */
		if (w != 0)
			return probe(arg);
		if (answer == NULL || gmp_debug.noevmask)
			continue;
		uint64_t m = __atomic_load_n(&pd->evmask, __ATOMIC_ACQUIRE);
		long r = (int32_t)((uint32_t)(m >> 32) - last.calls) > 0 ? answer(arg, (uint32_t)m) : 0;
		if (r != 0)
			return r;
	}
}

long gmp_fd_epoll_wait(int epfd, void *ev, int max, int64_t deadline, long (*probe)(void *), void *arg)
{
	int64_t wake;
	while (deadline != 0 && !__atomic_load_n(&gmp_nopwait2, __ATOMIC_RELAXED) && gmp_kernelwait_begin(&wake)) {
		int64_t until = wake >= 0 && (deadline < 0 || wake < deadline) ? wake : deadline;
		struct timespec ts;
		long r = gmp_syscall_intr(SYS_epoll_pwait2, epfd, (long)ev, max, (long)gmp_deadline_timeout(until, &ts),
					  0, 8);
		if (gmp_kernelwait_end(wake) && r == -EINTR)
			break;
		if (r == -ENOSYS) {
			__atomic_store_n(&gmp_nopwait2, 1, __ATOMIC_RELAXED);
			break;
		}
		if (r != 0 || until == deadline)
			return r;
		/* The timer this M watched is due: its G runs, then this one
		 * waits again. */
		gmp_kernelwait_timers();
	}
	return gmp_fd_wait_ready(epfd, probe, NULL, arg, deadline, NULL);
}

/* A call between two fds (splice, tee) as if both were blocking: on
 * EAGAIN, wait for whichever end is not ready, input first. */
long gmp_fd_syscall2(int in, int out, long nr, const long a[6])
{
	struct polldesc *pi = gmp_pd_lookup(in), *po = gmp_pd_lookup(out);
	if (pi && (pi->flags & PD_USERNB))
		pi = NULL;
	if (po && (po->flags & PD_USERNB))
		po = NULL;
	if (pi == NULL && po == NULL)
		return gmp_blocking_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (getg() == NULL) {
		/* A foreign thread: wait for the ends in poll, as blocking fds would. */
		for (;;) {
			long r = gmp_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
			if (r != -EAGAIN)
				return r;
			struct pollfd p[2] = { { .fd = in, .events = pi ? POLLIN : 0 },
					       { .fd = out, .events = po ? POLLOUT : 0 } };
			gmp_syscall6(SYS_ppoll, (long)p, 2, 0, 0, 8, 0);
		}
	}
	gmp_getp();
	for (;;) {
		uint32_t rv = pi ? __atomic_load_n(&pi->rgen, __ATOMIC_ACQUIRE) : 0;
		uint32_t wv = po ? __atomic_load_n(&po->wgen, __ATOMIC_ACQUIRE) : 0;
		uint32_t rs = pi ? pi->fdseq : 0, ws = po ? po->fdseq : 0;
		long r = gmp_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if (r != -EAGAIN) {
			if (pi)
				note_read(pi, r, 0, 0);
			return r;
		}
		struct pollfd p[2] = { { .fd = in, .events = POLLIN }, { .fd = out, .events = POLLOUT } };
		gmp_syscall_intr(SYS_ppoll, (long)p, 2, (long)&(struct timespec){ 0, 0 }, 0, 8, 0);
		int w = 0;
		if (pi && !(p[0].revents & POLLIN))
			w = gmp_netpoll_wait(pi, &pi->rgen, rv, rs, -1, WAIT_IO_READ);
		else if (po && !(p[1].revents & POLLOUT))
			w = gmp_netpoll_wait(po, &po->wgen, wv, ws, -1, WAIT_IO_WRITE);
		if (w == EBADF)
			return -EBADF;
	}
}
