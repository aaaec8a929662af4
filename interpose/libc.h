/* glibc entry points we export that its public headers do not declare:
 * the _FORTIFY_SOURCE checking variants (the fortified headers declare them
 * only under _FORTIFY_SOURCE, as aliases of the plain names) and Linux
 * AIO's io_getevents (libaio calls the system call by that name).  Declared
 * once here so that their definitions are checked against a prototype. */
#ifndef GMP_LIBC_H
#define GMP_LIBC_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags, struct sockaddr *addr,
		       socklen_t *alen);
int __poll_chk(struct pollfd *fds, nfds_t n, int ms, size_t fdslen);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask, size_t fdslen);
void __chk_fail(void) __attribute__((noreturn));
int io_getevents(unsigned long ctx, long min, long max, void *ev, struct timespec *ts);

#endif
