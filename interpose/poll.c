/* Readiness calls.  Without a signal mask, poll/ppoll, select/pselect
 * and epoll_wait on the program's own epoll instance park the G while the
 * fds they wait on are ones we poll (shim/pollselect.c, shim/fdio.c).  A
 * signal mask must be swapped in atomically with the wait, which only the
 * kernel can do for the M: those calls block the M between entersyscall
 * and exitsyscall, with the mask applied by the kernel as given. */
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>

#include "export.h"
#include "libc.h"
#include "shim/cancel.h"
#include "shim/gsignal.h"
#include "shim/netpoll.h"
#include "shim/runtime.h"
#include "shim/sys.h"
#include "shim/syscall.h"
#include "shim/timer.h"

#define NS 1000000000LL

/* start + sec s + ns, saturating: a timeout of centuries is a deadline,
 * not a wrap. */
static int64_t add_sat(int64_t start, int64_t sec, int64_t ns)
{
	if (sec > (INT64_MAX - start) / NS - 1)
		return INT64_MAX;
	return start + sec * NS + ns;
}

static int64_t after(int64_t sec, int64_t ns)
{
	return add_sat(gmp_nanotime(), sec, ns);
}

/* Monotonic deadline of a timeout in ms (-1 forever, 0 now). */
static int64_t ms_deadline(int ms)
{
	return ms < 0 ? -1 : ms == 0 ? 0 : after(ms / 1000, (ms % 1000) * 1000000LL);
}

static bool ts_valid(const struct timespec *ts)
{
	return ts == NULL || (ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < NS);
}

static int64_t ts_deadline(const struct timespec *ts)
{
	if (ts == NULL)
		return -1;
	if (ts->tv_sec == 0 && ts->tv_nsec == 0)
		return 0;
	return after(ts->tv_sec, ts->tv_nsec);
}

/* A blocking call whose argument `at` (0-based) is a signal mask the
 * kernel applies for its duration: see gmp_sig_masked_enter. */
static long masked_call(long nr, long *a, const sigset_t *mask, int at)
{
	if (getg() == NULL) {
		a[at] = (long)mask;
		return gmp_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	struct gmp_sigcall c;
	gmp_sig_masked_enter(&c, mask);
	a[at] = (long)&c.kmask;
	long r = gmp_syscall_intr(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	gmp_sig_masked_exit(&c);
	return r;
}

GMP_EXPORT int poll(struct pollfd *fds, nfds_t n, int ms)
{
	GMP_CANCEL_POINT;
	return (int)gmp_ret(gmp_poll(fds, n, ms_deadline(ms)));
}

GMP_EXPORT int __poll_chk(struct pollfd *fds, nfds_t n, int ms, size_t fdslen)
{
	GMP_CANCEL_POINT;
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return poll(fds, n, ms);
}

GMP_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask)
{
	GMP_CANCEL_POINT;
	if (!ts_valid(ts))
		return (int)gmp_ret(-EINVAL);
	if (mask == NULL)
		return (int)gmp_ret(gmp_poll(fds, n, ts_deadline(ts)));
	struct timespec left;
	if (ts)
		left = *ts; /* the kernel writes back what remains; ppoll's caller sees no change */
	long a[6] = { (long)fds, (long)n, ts ? (long)&left : 0, 0, 8, 0 };
	return (int)gmp_ret(masked_call(SYS_ppoll, a, mask, 3));
}

GMP_EXPORT int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask,
			   size_t fdslen)
{
	GMP_CANCEL_POINT;
	if (fdslen / sizeof(*fds) < n)
		__chk_fail();
	return ppoll(fds, n, ts, mask);
}

GMP_EXPORT int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
	GMP_CANCEL_POINT;
	if (tv == NULL)
		return (int)gmp_ret(gmp_select(n, r, w, e, -1));
	if (tv->tv_sec < 0 || tv->tv_usec < 0)
		return (int)gmp_ret(-EINVAL);
	/* Microseconds past a second carry over, as Linux's select does. */
	int64_t sec = tv->tv_sec, ns = tv->tv_usec % 1000000 * 1000;
	sec = tv->tv_usec / 1000000 > INT64_MAX - sec ? INT64_MAX : sec + tv->tv_usec / 1000000;
	if (sec == 0 && ns == 0)
		return (int)gmp_ret(gmp_select(n, r, w, e, 0));
	int64_t start = gmp_nanotime();
	long res = gmp_select(n, r, w, e, add_sat(start, sec, ns));
	/* Linux writes back the time left, truncated to microseconds,
	 * whatever the outcome; counted down from the timeout itself so
	 * that a huge one does not overflow. */
	int64_t spent = gmp_nanotime() - start;
	int64_t lsec = sec - spent / NS, lns = ns - spent % NS;
	if (lns < 0) {
		lns += NS;
		lsec--;
	}
	if (lsec < 0)
		lsec = lns = 0;
	tv->tv_sec = lsec;
	tv->tv_usec = lns / 1000;
	return (int)gmp_ret(res);
}

GMP_EXPORT int pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *ts, const sigset_t *mask)
{
	GMP_CANCEL_POINT;
	if (!ts_valid(ts))
		return (int)gmp_ret(-EINVAL);
	if (mask == NULL)
		return (int)gmp_ret(gmp_select(n, r, w, e, ts_deadline(ts)));
	struct timespec left;
	if (ts)
		left = *ts; /* pselect leaves the caller's timeout alone */
	struct gmp_sigcall c;
	struct {
		const void *ss;
		size_t len;
	} sig = { &c.kmask, 8 };
	/* As masked_call, with the mask behind pselect6's pointer pair. */
	if (getg() == NULL)
		sig.ss = mask;
	else
		gmp_sig_masked_enter(&c, mask);
	long ret = gmp_syscall_intr(SYS_pselect6, n, (long)r, (long)w, (long)e, ts ? (long)&left : 0, (long)&sig);
	if (getg() != NULL)
		gmp_sig_masked_exit(&c);
	return (int)gmp_ret(ret);
}

struct epoll_args {
	int epfd;
	struct epoll_event *ev;
	int max;
};

static long epoll_probe(void *arg)
{
	struct epoll_args *a = arg;
	return gmp_syscall_intr(SYS_epoll_pwait, a->epfd, (long)a->ev, a->max, 0, 0, 8);
}

static long do_epoll(int epfd, struct epoll_event *ev, int max, int64_t deadline, const sigset_t *mask,
		     const struct timespec *ts, int ms)
{
	if (mask == NULL && max > 0 && getg() != NULL && gmp_pd_lookup(epfd)) {
		gmp_getp();
		return gmp_fd_epoll_wait(epfd, ev, max, deadline, epoll_probe, &(struct epoll_args){ epfd, ev, max });
	}
	if (mask == NULL) {
		if (ts)
			return gmp_blocking_syscall6(SYS_epoll_pwait2, epfd, (long)ev, max, (long)ts, 0, 8);
		return gmp_blocking_syscall6(SYS_epoll_pwait, epfd, (long)ev, max, ms, 0, 8);
	}
	long a[6] = { epfd, (long)ev, max, ts ? (long)ts : ms, 0, 8 };
	return masked_call(ts ? SYS_epoll_pwait2 : SYS_epoll_pwait, a, mask, 4);
}

GMP_EXPORT int epoll_wait(int epfd, struct epoll_event *ev, int max, int ms)
{
	GMP_CANCEL_POINT;
	return (int)gmp_ret(do_epoll(epfd, ev, max, ms_deadline(ms), NULL, NULL, ms));
}

GMP_EXPORT int epoll_pwait(int epfd, struct epoll_event *ev, int max, int ms, const sigset_t *mask)
{
	GMP_CANCEL_POINT;
	return (int)gmp_ret(do_epoll(epfd, ev, max, ms_deadline(ms), mask, NULL, ms));
}

GMP_EXPORT int epoll_pwait2(int epfd, struct epoll_event *ev, int max, const struct timespec *ts,
			    const sigset_t *mask)
{
	GMP_CANCEL_POINT;
	if (!ts_valid(ts))
		return (int)gmp_ret(-EINVAL);
	return (int)gmp_ret(do_epoll(epfd, ev, max, ts_deadline(ts), mask, ts, ts ? 0 : -1));
}
