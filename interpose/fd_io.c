/* Reads and writes.  On an fd the netpoller watches, the G parks until
 * the fd is ready (shim/fdio.c); on any other the call blocks its M
 * between entersyscall and exitsyscall.  No gmp_ensure_init here: before
 * the runtime starts no fd is polled and there is no G, so these are
 * plain blocking calls. */
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "export.h"
#include "libc.h"
#include "shim/cancel.h"
#include "shim/netpoll.h"
#include "shim/sys.h"

GMP_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	GMP_CANCEL_POINT;
	return gmp_ret(gmp_fd_syscall(fd, 'r', SYS_read, (long)buf, (long)n, 0, 0, 0));
}

GMP_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	GMP_CANCEL_POINT;
	if (n > buflen)
		__chk_fail();
	return read(fd, buf, n);
}

GMP_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	GMP_CANCEL_POINT;
	return gmp_ret(gmp_fd_write_all(fd, SYS_write, buf, n, 0, 0, 0));
}

GMP_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
	GMP_CANCEL_POINT;
	return gmp_ret(gmp_fd_syscall(fd, 'r', SYS_readv, (long)iov, n, 0, 0, 0));
}

/* Partial vectored writes continue from where the kernel stopped, on a
 * copy of the vector's remaining part. */
static long writev_all(int fd, long nr, const struct iovec *iov, int n, struct msghdr *msg, int flags)
{
	long first = nr == SYS_writev ? gmp_fd_syscall(fd, 'w', nr, (long)iov, n, 0, 0, 0)
				      : gmp_fd_syscall(fd, 'w', nr, (long)msg, flags, 0, 0, 0);
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (first < 0 || pd == NULL || (pd->flags & PD_USERNB) || n > 64)
		return first;
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	size_t done = (size_t)first;
	struct iovec rest[64];
	while (done < total) {
		size_t skip = done;
		int k = 0, m = 0;
		while (k < n && skip >= iov[k].iov_len)
			skip -= iov[k++].iov_len;
		for (; k < n; k++, skip = 0)
			rest[m++] = (struct iovec){ (char *)iov[k].iov_base + skip, iov[k].iov_len - skip };
		long r;
		if (nr == SYS_writev) {
			r = gmp_fd_syscall(fd, 'w', nr, (long)rest, m, 0, 0, 0);
		} else {
			struct msghdr mh = *msg;
			mh.msg_iov = rest;
			mh.msg_iovlen = (size_t)m;
			mh.msg_control = NULL; /* ancillary data went with the first part */
			mh.msg_controllen = 0;
			r = gmp_fd_syscall(fd, 'w', nr, (long)&mh, flags, 0, 0, 0);
		}
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	return (long)done;
}

GMP_EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
	GMP_CANCEL_POINT;
	return gmp_ret(writev_all(fd, SYS_writev, iov, n, NULL, 0));
}

/* MSG_DONTWAIT asks for this one call not to block, and reads of the
 * error queue or of urgent data never do (they say EAGAIN when there is
 * none, which says nothing of the data): no parking. */
static long rcall(int fd, long nr, int flags, long a1, long a2, long a3, long a4, long a5)
{
	if (flags & (MSG_ERRQUEUE | MSG_OOB))
		return gmp_ret(gmp_syscall6(nr, fd, a1, a2, a3, a4, a5));
	if (flags & MSG_DONTWAIT)
		return gmp_ret(gmp_fd_read_nowait(fd, nr, a1, a2, a3, a4, a5));
	return gmp_ret(gmp_fd_syscall(fd, 'r', nr, a1, a2, a3, a4, a5));
}

GMP_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *addr, socklen_t *alen)
{
	GMP_CANCEL_POINT;
	return rcall(fd, SYS_recvfrom, flags, (long)buf, (long)n, flags, (long)addr, (long)alen);
}

GMP_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	GMP_CANCEL_POINT;
	return recvfrom(fd, buf, n, flags, NULL, NULL);
}

GMP_EXPORT ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags)
{
	GMP_CANCEL_POINT;
	if (n > buflen)
		__chk_fail();
	return recv(fd, buf, n, flags);
}

GMP_EXPORT ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags, struct sockaddr *addr,
				  socklen_t *alen)
{
	GMP_CANCEL_POINT;
	if (n > buflen)
		__chk_fail();
	return recvfrom(fd, buf, n, flags, addr, alen);
}

GMP_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	GMP_CANCEL_POINT;
	return rcall(fd, SYS_recvmsg, flags, (long)msg, flags, 0, 0, 0);
}

GMP_EXPORT int recvmmsg(int fd, struct mmsghdr *vec, unsigned int n, int flags, struct timespec *timeout)
{
	GMP_CANCEL_POINT;
	return (int)rcall(fd, SYS_recvmmsg, flags, (long)vec, n, flags, (long)timeout, 0);
}

GMP_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr, socklen_t alen)
{
	GMP_CANCEL_POINT;
	if (flags & MSG_DONTWAIT)
		return gmp_ret(gmp_syscall6(SYS_sendto, fd, (long)buf, (long)n, flags, (long)addr, alen));
	return gmp_ret(gmp_fd_write_all(fd, SYS_sendto, buf, n, flags, (long)addr, alen));
}

GMP_EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	GMP_CANCEL_POINT;
	return sendto(fd, buf, n, flags, NULL, 0);
}

/* The fds a message carries go to another process in the mode the
 * program set (a forkserver child's blocking read of a pipe passed to it
 * said EAGAIN: tests/integration/fd_passing). */
static void share_passed_fds(const struct msghdr *msg)
{
	if (msg->msg_control == NULL)
		return;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR((struct msghdr *)msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof fd, sizeof fd);
			gmp_netpoll_share(fd);
		}
	}
}

GMP_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	GMP_CANCEL_POINT;
	share_passed_fds(msg);
	if (flags & MSG_DONTWAIT)
		return gmp_ret(gmp_syscall(SYS_sendmsg, fd, msg, flags));
	return gmp_ret(writev_all(fd, SYS_sendmsg, msg->msg_iov, (int)msg->msg_iovlen, (struct msghdr *)msg, flags));
}

GMP_EXPORT int sendmmsg(int fd, struct mmsghdr *vec, unsigned int n, int flags)
{
	GMP_CANCEL_POINT;
	for (unsigned int i = 0; i < n; i++)
		share_passed_fds(&vec[i].msg_hdr);
	if (flags & MSG_DONTWAIT)
		return (int)gmp_ret(gmp_syscall6(SYS_sendmmsg, fd, (long)vec, n, flags, 0, 0));
	return (int)gmp_ret(gmp_fd_syscall(fd, 'w', SYS_sendmmsg, (long)vec, n, flags, 0, 0));
}

GMP_EXPORT int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	GMP_CANCEL_POINT;
	return (int)gmp_ret(gmp_fd_connect(fd, addr, len));
}
