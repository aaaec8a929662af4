/* open and friends may block (a FIFO waits for its other end), so they run
 * between entersyscall and exitsyscall; a FIFO the program opens is then
 * polled like a pipe.  A /proc path naming a G's TID names its M's
 * (shim/thread.h). */
/* Define the plain and the *64 names ourselves, both 64-bit on x86_64. */
#undef _FILE_OFFSET_BITS
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/netpoll.h"
#include "shim/sys.h"
#include "shim/syscall.h"
#include "shim/thread.h"

static int opened(long fd, int flags)
{
	struct stat st;
	if (fd >= 0 && gmp_syscall(SYS_fstat, fd, &st, 0) == 0 && S_ISFIFO(st.st_mode))
		gmp_netpoll_open((int)fd, (flags & O_NONBLOCK ? PD_USERNB : 0) | (flags & O_DIRECT ? 0 : PD_STREAM),
				 flags & O_NONBLOCK);
	return (int)gmp_ret(fd);
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

GMP_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	char buf[64];
	path = gmp_kernel_tid_path(path, buf, sizeof buf);
	return opened(gmp_blocking_syscall6(SYS_openat, dirfd, (long)path, flags, mode, 0, 0), flags);
}

GMP_EXPORT int open(const char *path, int flags, ...)
{
	GMP_CANCEL_POINT;
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return openat(AT_FDCWD, path, flags, mode);
}

/* stdio opens through glibc's internal open, which we do not see: here
 * for the same reasons as open. */
GMP_EXPORT FILE *fopen(const char *path, const char *mode)
{
	char buf[64];
	return GMP_BLOCKING_CALL(GMP_REAL(fopen)(gmp_kernel_tid_path(path, buf, sizeof buf), mode));
}

GMP_EXPORT FILE *fopen64(const char *path, const char *mode)
{
	char buf[64];
	return GMP_BLOCKING_CALL(GMP_REAL(fopen64)(gmp_kernel_tid_path(path, buf, sizeof buf), mode));
}

/* On x86_64 the *64 variants are the same calls, O_LARGEFILE implied. */
GMP_EXPORT int open64(const char *path, int flags, ...) __attribute__((alias("open")));
GMP_EXPORT int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

GMP_EXPORT int creat(const char *path, mode_t mode)
{
	GMP_CANCEL_POINT;
	return openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

GMP_EXPORT int creat64(const char *path, mode_t mode) __attribute__((alias("creat")));
