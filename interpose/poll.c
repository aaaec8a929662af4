/* Readiness calls.  poll on a single polled fd and epoll_wait on the
 * program's own epoll instance (which our epoll watches) park the G;
 * everything else (several fds, a signal mask to swap in, fds we do not
 * poll) first looks without blocking, then blocks its M between
 * entersyscall and exitsyscall. */
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>

#include "export.h"
#include "shim/netpoll.h"

void __chk_fail(void) __attribute__((noreturn));

static const struct timespec zero;

/* Monotonic deadline of a timeout in ms (-1 forever, 0 now). */
static int64_t ms_deadline(int ms)
{
	return ms < 0 ? -1 : ms == 0 ? 0 : gmp_nanotime() + ms * 1000000LL;
}

static int64_t ts_deadline(const struct timespec *ts)
{
	if (ts == NULL)
		return -1;
	if (ts->tv_sec == 0 && ts->tv_nsec == 0)
		return 0;
	return gmp_nanotime() + ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

struct poll_args {
	struct pollfd *fds;
};

static long poll_probe(void *arg)
{
	struct poll_args *a = arg;
	return gmp_syscall6(SYS_ppoll, (long)a->fds, 1, (long)&zero, 0, 8, 0);
}

static long do_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	if (n == 1 && mask == NULL && getg() != NULL && gmp_pd_lookup(fds[0].fd)) {
		gmp_getp();
		return gmp_fd_wait_ready(fds[0].fd, poll_probe, &(struct poll_args){ fds }, ts_deadline(ts));
	}
	long r = gmp_syscall6(SYS_ppoll, (long)fds, (long)n, (long)&zero, 0, 8, 0);
	if (r != 0 || (ts && ts->tv_sec == 0 && ts->tv_nsec == 0))
		return r;
	struct timespec left;
	if (ts)
		left = *ts; /* the kernel writes back what remains */
	return gmp_blocking_syscall6(SYS_ppoll, (long)fds, (long)n, ts ? (long)&left : 0, (long)mask, 8, 0);
}

GMP_EXPORT int poll(struct pollfd *fds, nfds_t n, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	return (int)gmp_ret(do_ppoll(fds, n, ms < 0 ? NULL : &ts, NULL));
}

GMP_EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int ms, size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return poll(fds, n, ms);
}

GMP_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	return (int)gmp_ret(do_ppoll(fds, n, ts, mask));
}

GMP_EXPORT int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask,
			   size_t fdslen)
{
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return ppoll(fds, n, ts, mask);
}

GMP_EXPORT int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	return (int)gmp_ret(gmp_blocking_syscall6(SYS_select, n, (long)r, (long)w, (long)e, (long)tv, 0));
}

GMP_EXPORT int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *ts, const sigset_t *mask)
{
	struct timespec left;
	if (ts)
		left = *ts; /* pselect leaves the caller's timeout alone */
	struct {
		const sigset_t *ss;
		size_t len;
	} sig = { mask, 8 };
	return (int)gmp_ret(gmp_blocking_syscall6(SYS_pselect6, n, (long)r, (long)w, (long)e, ts ? (long)&left : 0,
						  (long)&sig));
}

struct epoll_args {
	int epfd;
	struct epoll_event *ev;
	int max;
};

static long epoll_probe(void *arg)
{
	struct epoll_args *a = arg;
	return gmp_syscall6(SYS_epoll_pwait, a->epfd, (long)a->ev, a->max, 0, 0, 8);
}

static long do_epoll(int epfd, struct epoll_event *ev, int max, int64_t deadline, const sigset_t *mask,
		     const struct timespec *ts, int ms)
{
	if (mask == NULL && max > 0 && getg() != NULL && gmp_pd_lookup(epfd)) {
		gmp_getp();
		return gmp_fd_wait_ready(epfd, epoll_probe, &(struct epoll_args){ epfd, ev, max }, deadline);
	}
	if (ts)
		return gmp_blocking_syscall6(SYS_epoll_pwait2, epfd, (long)ev, max, (long)ts, (long)mask, 8);
	return gmp_blocking_syscall6(SYS_epoll_pwait, epfd, (long)ev, max, ms, (long)mask, 8);
}

GMP_EXPORT int epoll_wait(int epfd, struct epoll_event *ev, int max, int ms)
{
	return (int)gmp_ret(do_epoll(epfd, ev, max, ms_deadline(ms), NULL, NULL, ms));
}

GMP_EXPORT int epoll_pwait(int epfd, struct epoll_event *ev, int max, int ms, const sigset_t *mask)
{
	return (int)gmp_ret(do_epoll(epfd, ev, max, ms_deadline(ms), mask, NULL, ms));
}

GMP_EXPORT int epoll_pwait2(int epfd, struct epoll_event *ev, int max, const struct timespec *ts,
			    const sigset_t *mask)
{
	return (int)gmp_ret(do_epoll(epfd, ev, max, ts_deadline(ts), mask, ts, ts ? 0 : -1));
}
