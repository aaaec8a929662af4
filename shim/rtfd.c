/* The runtime's own descriptors.  They live at the top of the range the
 * program may use (below RLIMIT_NOFILE's soft limit, at most 4096: a
 * higher number would grow the kernel's fd table, and copy it at every
 * fork, for nothing), where a program that counts on open() returning
 * the lowest free number never meets them.  The interposed close, dup2,
 * fcntl and their kin (interpose/fd_control.c) treat them as not open, so
 * a loop that closes every fd, close_range and closefrom leave them be; a
 * dup2 onto one moves it away first.  What a raw system call does to one
 * anyway is noticed where it is used (netpoll.c rebuilds its fds). */
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "fork.h"
#include "lock.h"
#include "rtfd.h"
#include "sys.h"

#define NRTFD GMP_RTFD_MAX
#define TOP_CAP 4096

static struct {
	int fd;     /* -1: free slot */
	int *where; /* the variable that holds it, or NULL */
} fds[NRTFD] = { { -1, NULL }, { -1, NULL }, { -1, NULL }, { -1, NULL } };
static struct mutex rtfdlock;

/* fd moved where the program's calls never reach: just above RLIMIT_NOFILE's
 * soft limit when the hard one leaves room (the soft limit is raised for
 * the dup and put back: the program's open, dup2 and close loops stop
 * below it), else at the top of the range below it.  -errno if no number
 * is free. */
static long place(int fd, long above)
{
	struct rlimit rl, more;
	if (gmp_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&rl, 0, 0) != 0)
		return gmp_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, above);
	if (rl.rlim_cur < (rlim_t)TOP_CAP && rl.rlim_max >= rl.rlim_cur + 2 * NRTFD) {
		more = rl;
		more.rlim_cur += 2 * NRTFD;
		if (gmp_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, (long)&more, 0, 0, 0) == 0) {
			long at = (long)rl.rlim_cur > above ? (long)rl.rlim_cur : above;
			long r = gmp_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, at);
			gmp_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, (long)&rl, 0, 0, 0);
			if (r >= 0)
				return r;
		}
	}
	long top = rl.rlim_cur < (rlim_t)TOP_CAP ? (long)rl.rlim_cur : TOP_CAP;
	long floor = top - 2 * NRTFD > 3 ? top - 2 * NRTFD : 3;
	long r = gmp_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, floor > above ? floor : above);
	return r >= 0 ? r : gmp_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3);
}

bool gmp_rtfd_is(int fd)
{
	if (fd < 0)
		return false;
	for (int i = 0; i < NRTFD; i++)
		if (__atomic_load_n(&fds[i].fd, __ATOMIC_RELAXED) == fd)
			return true;
	return false;
}

int gmp_rtfd_list(int *out)
{
	int n = 0;
	for (int i = 0; i < NRTFD; i++) {
		int fd = __atomic_load_n(&fds[i].fd, __ATOMIC_ACQUIRE);
		if (fd < 0)
			continue;
		int j = n++;
		for (; j > 0 && out[j - 1] > fd; j--)
			out[j] = out[j - 1];
		out[j] = fd;
	}
	return n;
}

int gmp_rtfd_adopt(int fd)
{
	long hi = place(fd, 3);
	if (hi >= 0) {
		gmp_syscall(SYS_close, fd, 0, 0);
		fd = (int)hi;
	}
	lock(&rtfdlock);
	for (int i = 0; i < NRTFD; i++) {
		if (fds[i].fd < 0) {
			fds[i].where = NULL;
			__atomic_store_n(&fds[i].fd, fd, __ATOMIC_RELEASE);
			break;
		}
	}
	unlock(&rtfdlock);
	return fd;
}

void gmp_rtfd_owner(int fd, int *where)
{
	lock(&rtfdlock);
	for (int i = 0; i < NRTFD; i++)
		if (fds[i].fd == fd)
			fds[i].where = where;
	unlock(&rtfdlock);
}

/* Whether fd is still a file of the kind all of ours are (an anonymous
 * inode: epoll, eventfd, timerfd): after a raw close the number may be the
 * program's.  Without /proc, take it as ours. */
static bool still_ours(int fd)
{
	if (gmp_syscall(SYS_fcntl, fd, F_GETFD, 0) < 0)
		return false;
	char path[32] = "/proc/self/fd/", link[16];
	char digits[12];
	int n = 0, len = 14;
	for (unsigned v = (unsigned)fd; n == 0 || v; v /= 10)
		digits[n++] = (char)('0' + v % 10);
	while (n > 0)
		path[len++] = digits[--n];
	path[len] = '\0';
	long r = gmp_syscall6(SYS_readlinkat, AT_FDCWD, (long)path, (long)link, sizeof link, 0, 0);
	if (r < 0)
		return true;
	static const char anon[] = "anon_inode:";
	for (int i = 0; i < (int)sizeof anon - 1; i++)
		if (i >= r || link[i] != anon[i])
			return false;
	return true;
}

void gmp_rtfd_close(int fd)
{
	bool ours = false;
	lock(&rtfdlock);
	for (int i = 0; i < NRTFD; i++) {
		if (fds[i].fd == fd) {
			__atomic_store_n(&fds[i].fd, -1, __ATOMIC_RELEASE);
			fds[i].where = NULL;
			ours = true;
		}
	}
	unlock(&rtfdlock);
	if (ours && still_ours(fd))
		gmp_syscall(SYS_close, fd, 0, 0);
}

void gmp_rtfd_evict(int fd)
{
	lock(&rtfdlock);
	for (int i = 0; i < NRTFD; i++) {
		if (fds[i].fd != fd)
			continue;
		long to = place(fd, fd + 1);
		if (to < 0)
			break; /* no number left: the program's dup2 replaces ours */
		__atomic_store_n(&fds[i].fd, (int)to, __ATOMIC_RELEASE);
		if (fds[i].where)
			__atomic_store_n(fds[i].where, (int)to, __ATOMIC_RELEASE);
		/* fd itself stays open until the program's dup2 replaces it
		 * atomically: a call on the old number in flight meanwhile
		 * still reaches our file. */
	}
	unlock(&rtfdlock);
}

void rtfd_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE)
		lock(&rtfdlock);
	else if (phase == FORK_PARENT)
		unlock(&rtfdlock);
	else
		rtfdlock = (struct mutex){ 0 };
}
