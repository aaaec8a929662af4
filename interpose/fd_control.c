/* The calls that change or report what an fd is: the program sees the
 * O_NONBLOCK it asked for, never the one we set; closing or replacing a
 * polled fd wakes the Gs parked on it; handing an fd to code that does
 * its own I/O behind our back (stdio, dprintf) gives it back its blocking
 * description. */
/* Define fcntl and fcntl64 ourselves, the same call on x86_64. */
#undef _FILE_OFFSET_BITS
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/netpoll.h"
#include "shim/rtfd.h"
#include "shim/sys.h"
#include "shim/syscall.h"

GMP_EXPORT int close(int fd)
{
	GMP_CANCEL_POINT;
	if (gmp_rtfd_is(fd))
		return (int)gmp_ret(-EBADF); /* the runtime's: never the program's to close */
	gmp_netpoll_close(fd, true);
	return (int)gmp_ret(gmp_syscall(SYS_close, fd, 0, 0));
}

struct range {
	unsigned lo, hi;
};

static void close_in_range(int fd, struct polldesc *pd, void *arg)
{
	(void)pd;
	struct range *r = arg;
	if ((unsigned)fd >= r->lo && (unsigned)fd <= r->hi)
		gmp_netpoll_close(fd, true);
}

/* close_range over [first, last] less the runtime's fds: the kernel's
 * call on each stretch between them. */
static long close_range_around(unsigned first, unsigned last, int flags)
{
	int ours[GMP_RTFD_MAX];
	int n = gmp_rtfd_list(ours);
	unsigned lo = first;
	for (int i = 0; i < n && lo <= last; i++) {
		unsigned fd = (unsigned)ours[i];
		if (fd < lo || fd > last)
			continue;
		if (fd > lo) {
			long r = gmp_syscall(SYS_close_range, lo, fd - 1, flags);
			if (r < 0)
				return r;
		}
		if (fd == last)
			return 0;
		lo = fd + 1;
	}
	return gmp_syscall(SYS_close_range, lo, last, flags);
}

GMP_EXPORT int close_range(unsigned int first, unsigned int last, int flags)
{
	if (!(flags & CLOSE_RANGE_CLOEXEC) && first <= last)
		gmp_pd_foreach(close_in_range, &(struct range){ first, last });
	if (first > last)
		return (int)gmp_ret(gmp_syscall(SYS_close_range, first, last, flags));
	return (int)gmp_ret(close_range_around(first, last, flags));
}

GMP_EXPORT void closefrom(int lowfd)
{
	if (lowfd < 0)
		lowfd = 0;
	if (close_range((unsigned)lowfd, ~0U, 0) == 0)
		return;
	/* No close_range in this kernel: one fd at a time, as glibc does. */
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = lowfd; fd < max; fd++)
		close((int)fd);
}

/* stdio on fds 0-2 does its own reads and writes: a polled description
 * that lands there goes back to blocking (for every fd sharing it). */
static void dup_to(int oldfd, int newfd)
{
	gmp_netpoll_close(newfd, false);
	gmp_netpoll_dup(oldfd, newfd);
	if (newfd <= 2 && gmp_pd_lookup(newfd)) {
		gmp_netpoll_share(newfd);
		gmp_netpoll_share(oldfd); /* its waiters go on waiting */
	}
}

GMP_EXPORT int dup(int fd)
{
	if (gmp_rtfd_is(fd))
		return (int)gmp_ret(-EBADF);
	long r = gmp_syscall(SYS_dup, fd, 0, 0);
	if (r >= 0)
		dup_to(fd, (int)r);
	return (int)gmp_ret(r);
}

GMP_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	if (gmp_rtfd_is(oldfd))
		return (int)gmp_ret(-EBADF);
	/* The number is the program's to take: ours moves away first, and
	 * stays open under the old number until the dup replaces it. */
	bool evicted = gmp_rtfd_is(newfd) && oldfd != newfd;
	if (evicted)
		gmp_rtfd_evict(newfd);
	long r = gmp_syscall(SYS_dup3, oldfd, newfd, flags);
	if (r >= 0)
		dup_to(oldfd, newfd);
	else if (evicted)
		gmp_syscall(SYS_close, newfd, 0, 0); /* closed to the program before, as now */
	return (int)gmp_ret(r);
}

GMP_EXPORT int dup2(int oldfd, int newfd)
{
	if (oldfd == newfd) /* only checks that oldfd is open */
		return (int)gmp_ret(gmp_rtfd_is(oldfd) || gmp_syscall(SYS_fcntl, oldfd, F_GETFD, 0) < 0 ? -EBADF : newfd);
	return dup3(oldfd, newfd, 0);
}

static long do_fcntl(int fd, int cmd, long arg)
{
	if (gmp_rtfd_is(fd))
		return -EBADF; /* the runtime's, as if not open */
	struct polldesc *pd = gmp_pd_lookup(fd);
	long r;
	switch (cmd) {
	case F_GETFL:
		r = gmp_syscall(SYS_fcntl, fd, cmd, 0);
		if (r >= 0 && pd && (pd->flags & PD_SETNB))
			r &= ~(long)O_NONBLOCK;
		return r;
	case F_SETFL:
		if (pd && !(pd->flags & PD_EPOLL)) {
			r = gmp_syscall(SYS_fcntl, fd, cmd, arg | O_NONBLOCK);
			if (r == 0)
				gmp_netpoll_setnb(fd, arg & O_NONBLOCK);
			return r;
		}
		return gmp_syscall(SYS_fcntl, fd, cmd, arg);
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		r = gmp_syscall(SYS_fcntl, fd, cmd, arg);
		if (r >= 0)
			dup_to(fd, (int)r);
		return r;
	case F_SETLKW:
	case F_OFD_SETLKW: {
		GMP_CANCEL_POINT; /* POSIX: fcntl is one with F_SETLKW */
		return gmp_blocking_syscall(SYS_fcntl, fd, cmd, arg);
	}
	default:
		return gmp_syscall(SYS_fcntl, fd, cmd, arg);
	}
}

GMP_EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	va_start(ap, cmd);
	long arg = va_arg(ap, long);
	va_end(ap);
	if (cmd == F_GETOWN) {
		/* As glibc: a process group comes back negative, not as an error. */
		struct f_owner_ex ex;
		long r = gmp_rtfd_is(fd) ? -EBADF : gmp_syscall(SYS_fcntl, fd, F_GETOWN_EX, &ex);
		if (r < 0)
			return (int)gmp_ret(r);
		return ex.type == F_OWNER_PGRP ? -ex.pid : ex.pid;
	}
	return (int)gmp_ret(do_fcntl(fd, cmd, arg));
}

GMP_EXPORT int fcntl64(int fd, int cmd, ...) __attribute__((alias("fcntl")));

GMP_EXPORT int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	long arg = va_arg(ap, long);
	va_end(ap);
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (req == FIONBIO && pd && !(pd->flags & PD_EPOLL) && arg) {
		long r = gmp_syscall(SYS_fcntl, fd, F_GETFL, 0); /* the fd is valid */
		if (r >= 0)
			gmp_netpoll_setnb(fd, *(int *)arg != 0);
		return (int)gmp_ret(r < 0 ? r : 0);
	}
	/* Some requests wait (TCSBRK, TIOCMIWAIT, device and driver waits). */
	return (int)gmp_ret(gmp_blocking_syscall(SYS_ioctl, fd, req, arg));
}

GMP_EXPORT int setsockopt(int fd, int level, int opt, const void *val, socklen_t len)
{
	long r = gmp_syscall6(SYS_setsockopt, fd, level, opt, (long)val, len, 0);
	struct polldesc *pd = gmp_pd_lookup(fd);
	/* SO_RCVTIMEO/SO_SNDTIMEO (and their _NEW twins, the same struct on
	 * x86_64) become deadlines of the park. */
	if (r == 0 && pd && level == SOL_SOCKET && len >= sizeof(struct timeval)) {
		const struct timeval *tv = val;
		int64_t ns = tv->tv_sec * 1000000000LL + tv->tv_usec * 1000LL;
		if (opt == SO_RCVTIMEO || opt == 66)
			pd->rtimeout = ns;
		else if (opt == SO_SNDTIMEO || opt == 67)
			pd->wtimeout = ns;
	}
	return (int)gmp_ret(r);
}

GMP_EXPORT FILE *fdopen(int fd, const char *mode)
{
	/* Blocking for stdio's own calls; a thread reading the same socket
	 * while another writes it through the FILE goes on waiting. */
	gmp_netpoll_share(fd);
	return GMP_REAL(fdopen)(fd, mode);
}

GMP_EXPORT int vdprintf(int fd, const char *fmt, va_list ap)
{
	char *s;
	int n = vasprintf(&s, fmt, ap);
	if (n < 0)
		return n;
	ssize_t w = write(fd, s, (size_t)n);
	free(s);
	return w < 0 ? -1 : (int)w;
}

GMP_EXPORT int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}
