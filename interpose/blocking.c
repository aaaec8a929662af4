/* Everything else that can block in the kernel: the call blocks its M
 * between entersyscall and exitsyscall, and sysmon hands the P to another
 * M if it lasts.  Where the fd may be one the netpoller watches (sendfile,
 * splice, tee) the G parks instead. */
/* Define the plain and the *64 names ourselves, both 64-bit on x86_64. */
#undef _FILE_OFFSET_BITS
#include <fcntl.h>
#include <mqueue.h>
#include <netdb.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "libc.h"
#include "shim/cancel.h"
#include "shim/netpoll.h"
#include "shim/proc.h"
#include "shim/syscall.h"

#define BLOCKING(nr, ...) gmp_ret(gmp_blocking_syscall6((nr), __VA_ARGS__))

GMP_EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_pread64, fd, (long)buf, (long)n, off, 0, 0);
}
GMP_EXPORT ssize_t pread64(int fd, void *buf, size_t n, off_t off) __attribute__((alias("pread")));

GMP_EXPORT ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_pwrite64, fd, (long)buf, (long)n, off, 0, 0);
}
GMP_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) __attribute__((alias("pwrite")));

GMP_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_preadv, fd, (long)iov, n, off, 0, 0);
}
GMP_EXPORT ssize_t preadv64(int fd, const struct iovec *iov, int n, off_t off) __attribute__((alias("preadv")));

GMP_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_pwritev, fd, (long)iov, n, off, 0, 0);
}
GMP_EXPORT ssize_t pwritev64(int fd, const struct iovec *iov, int n, off_t off) __attribute__((alias("pwritev")));

GMP_EXPORT int fsync(int fd)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_fsync, fd, 0, 0, 0, 0, 0);
}

GMP_EXPORT int fdatasync(int fd)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_fdatasync, fd, 0, 0, 0, 0, 0);
}

/* glibc makes these calls from its own wrappers, which the runtime would
 * see only as an M that stopped moving: here the P leaves with the call
 * (gmp_blocking_syscall6).  msync and sync_file_range are cancellation
 * points in glibc; sync and syncfs are not. */
GMP_EXPORT int msync(void *addr, size_t len, int flags)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_msync, (long)addr, (long)len, flags, 0, 0, 0);
}

GMP_EXPORT int sync_file_range(int fd, off64_t off, off64_t n, unsigned int flags)
{
	GMP_CANCEL_POINT;
#ifdef SYS_sync_file_range
	return (int)BLOCKING(SYS_sync_file_range, fd, off, n, flags, 0, 0);
#else
	return (int)BLOCKING(SYS_sync_file_range2, fd, flags, off, n, 0, 0);
#endif
}

GMP_EXPORT int syncfs(int fd)
{
	return (int)BLOCKING(SYS_syncfs, fd, 0, 0, 0, 0, 0);
}

GMP_EXPORT void sync(void)
{
	(void)BLOCKING(SYS_sync, 0, 0, 0, 0, 0, 0);
}

GMP_EXPORT int flock(int fd, int op)
{
	return (int)BLOCKING(SYS_flock, fd, op, 0, 0, 0, 0);
}

GMP_EXPORT int lockf(int fd, int cmd, off_t len)
{
	GMP_CANCEL_POINT;
	return GMP_BLOCKING_CALL(GMP_REAL(lockf)(fd, cmd, len));
}
GMP_EXPORT int lockf64(int fd, int cmd, off_t len) __attribute__((alias("lockf")));

/* A G that forked runs on the M that did until it has waited for its
 * children (shim/proc.c: the kernel's parent is that M's thread). */
GMP_EXPORT pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	GMP_CANCEL_POINT;
	int st = 0, *sp = status ? status : &st;
	pid_t r = (pid_t)BLOCKING(SYS_wait4, pid, (long)sp, options, (long)ru, 0, 0);
	if (r > 0 || (r < 0 && errno == ECHILD))
		gmp_children_waited(r > 0 && (WIFEXITED(*sp) || WIFSIGNALED(*sp)), r < 0);
	return r;
}

GMP_EXPORT pid_t waitpid(pid_t pid, int *status, int options)
{
	GMP_CANCEL_POINT;
	return wait4(pid, status, options, NULL);
}

GMP_EXPORT pid_t wait(int *status)
{
	GMP_CANCEL_POINT;
	return wait4(-1, status, 0, NULL);
}

GMP_EXPORT pid_t wait3(int *status, int options, struct rusage *ru)
{
	GMP_CANCEL_POINT;
	return wait4(-1, status, options, ru);
}

GMP_EXPORT int waitid(idtype_t type, id_t id, siginfo_t *info, int options)
{
	GMP_CANCEL_POINT;
	siginfo_t si = { 0 }, *ip = info ? info : &si;
	int r = (int)BLOCKING(SYS_waitid, type, id, (long)ip, options, 0, 0);
	if (r == 0 && ip->si_pid != 0) {
		bool gone = ip->si_code == CLD_EXITED || ip->si_code == CLD_KILLED || ip->si_code == CLD_DUMPED;
		gmp_children_waited(gone && !(options & WNOWAIT), false);
	} else if (r < 0 && errno == ECHILD) {
		gmp_children_waited(false, true);
	}
	return r;
}

GMP_EXPORT int msgsnd(int id, const void *msg, size_t n, int flags)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_msgsnd, id, (long)msg, (long)n, flags, 0, 0);
}

GMP_EXPORT ssize_t msgrcv(int id, void *msg, size_t n, long type, int flags)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_msgrcv, id, (long)msg, (long)n, type, flags, 0);
}

GMP_EXPORT int semop(int id, struct sembuf *ops, size_t n)
{
	return (int)BLOCKING(SYS_semtimedop, id, (long)ops, (long)n, 0, 0, 0);
}

GMP_EXPORT int semtimedop(int id, struct sembuf *ops, size_t n, const struct timespec *ts)
{
	return (int)BLOCKING(SYS_semtimedop, id, (long)ops, (long)n, (long)ts, 0, 0);
}

GMP_EXPORT int mq_timedsend(mqd_t q, const char *msg, size_t n, unsigned prio, const struct timespec *ts)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_mq_timedsend, q, (long)msg, (long)n, prio, (long)ts, 0);
}

GMP_EXPORT int mq_send(mqd_t q, const char *msg, size_t n, unsigned prio)
{
	GMP_CANCEL_POINT;
	return (int)BLOCKING(SYS_mq_timedsend, q, (long)msg, (long)n, prio, 0, 0);
}

GMP_EXPORT ssize_t mq_timedreceive(mqd_t q, char *msg, size_t n, unsigned *prio, const struct timespec *ts)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_mq_timedreceive, q, (long)msg, (long)n, (long)prio, (long)ts, 0);
}

GMP_EXPORT ssize_t mq_receive(mqd_t q, char *msg, size_t n, unsigned *prio)
{
	GMP_CANCEL_POINT;
	return BLOCKING(SYS_mq_timedreceive, q, (long)msg, (long)n, (long)prio, 0, 0);
}

GMP_EXPORT ssize_t sendfile(int out, int in, off_t *off, size_t n)
{
	return gmp_ret(gmp_fd_syscall(out, 'w', SYS_sendfile, in, (long)off, (long)n, 0, 0));
}
GMP_EXPORT ssize_t sendfile64(int out, int in, off_t *off, size_t n) __attribute__((alias("sendfile")));

GMP_EXPORT ssize_t splice(int in, loff_t *offin, int out, loff_t *offout, size_t n, unsigned flags)
{
	long a[6] = { in, (long)offin, out, (long)offout, (long)n, flags };
	return gmp_ret(gmp_fd_syscall2(in, out, SYS_splice, a));
}

GMP_EXPORT ssize_t tee(int in, int out, size_t n, unsigned flags)
{
	long a[6] = { in, out, (long)n, flags, 0, 0 };
	return gmp_ret(gmp_fd_syscall2(in, out, SYS_tee, a));
}

GMP_EXPORT ssize_t copy_file_range(int in, loff_t *offin, int out, loff_t *offout, size_t n, unsigned flags)
{
	return BLOCKING(SYS_copy_file_range, in, (long)offin, out, (long)offout, (long)n, flags);
}

GMP_EXPORT int io_getevents(unsigned long ctx, long min, long max, void *ev, struct timespec *ts)
{
	return (int)BLOCKING(SYS_io_getevents, (long)ctx, min, max, (long)ev, (long)ts, 0);
}

/* Resolver calls: glibc's DNS code uses its own sockets and polls, out of
 * our sight, so the whole call counts as one blocking call. */
GMP_EXPORT int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
			   struct addrinfo **res)
{
	return GMP_BLOCKING_CALL(GMP_REAL(getaddrinfo)(node, service, hints, res));
}

GMP_EXPORT int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen, char *serv,
			   socklen_t servlen, int flags)
{
	return GMP_BLOCKING_CALL(GMP_REAL(getnameinfo)(sa, salen, host, hostlen, serv, servlen, flags));
}
