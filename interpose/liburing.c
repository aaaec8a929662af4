/* liburing's waits for completions.  liburing makes its system calls
 * inline, not through libc, so a G waiting in io_uring_enter held its P
 * until sysmon noticed it asleep and took it (shim/rescue.c), and the
 * wait could end with an EINTR it would never have seen natively: the
 * runtime's signal (a preemption request sent while the G still ran, or
 * once /proc or its CPU clock said it ran) taken as the G entered the
 * wait, which io_uring ends for any signal (tests/integration/raw_block:
 * 1-4 runs in 100 at one P).  The entry points of liburing.so that may
 * wait are made here as one blocking call each, between entersyscall and
 * exitsyscall: sysmon hands the P on if the wait lasts, as for read or
 * wait4, and an EINTR that no handler of the program's explains makes the
 * wait again (GMP_BLOCKING_WAIT; a relative timeout starts over).
 *
 * The inline helpers of liburing.h (io_uring_wait_cqe, io_uring_peek_cqe
 * when it must enter the kernel) call __io_uring_get_cqe.  A program that
 * links liburing statically, or enters io_uring by hand, keeps its own
 * definitions: its waits are rescued as before (docs/compat.md).  The
 * types are liburing's, used only as pointers here, so the build does
 * not need its headers. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/syscall.h"

struct io_uring;
struct io_uring_cqe;
struct __kernel_timespec;

int __io_uring_get_cqe(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned submit, unsigned wait_nr,
		       sigset_t *sigmask);
int io_uring_wait_cqes(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned wait_nr,
		       struct __kernel_timespec *ts, sigset_t *sigmask);
int io_uring_wait_cqe_timeout(struct io_uring *ring, struct io_uring_cqe **cqe, struct __kernel_timespec *ts);
int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr);
int io_uring_submit_and_wait_timeout(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned wait_nr,
				     struct __kernel_timespec *ts, sigset_t *sigmask);
int __io_uring_sqring_wait(struct io_uring *ring);
int io_uring_enter(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags, sigset_t *sig);
int io_uring_enter2(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags, sigset_t *sig, size_t sz);

/* liburing reports errors as -errno. */
#define URING_EINTR(r) ((r) == -EINTR)
#define URING_WAIT(call) GMP_BLOCKING_WAIT(call, URING_EINTR)

GMP_EXPORT int __io_uring_get_cqe(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned submit, unsigned wait_nr,
				  sigset_t *sigmask)
{
	if (submit == 0 && wait_nr == 0)
		return GMP_REAL(__io_uring_get_cqe)(ring, cqe, submit, wait_nr, sigmask);
	return URING_WAIT(GMP_REAL(__io_uring_get_cqe)(ring, cqe, submit, wait_nr, sigmask));
}

GMP_EXPORT int io_uring_wait_cqes(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned wait_nr,
				  struct __kernel_timespec *ts, sigset_t *sigmask)
{
	return URING_WAIT(GMP_REAL(io_uring_wait_cqes)(ring, cqe, wait_nr, ts, sigmask));
}

GMP_EXPORT int io_uring_wait_cqe_timeout(struct io_uring *ring, struct io_uring_cqe **cqe,
					 struct __kernel_timespec *ts)
{
	return URING_WAIT(GMP_REAL(io_uring_wait_cqe_timeout)(ring, cqe, ts));
}

GMP_EXPORT int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	return URING_WAIT(GMP_REAL(io_uring_submit_and_wait)(ring, wait_nr));
}

GMP_EXPORT int io_uring_submit_and_wait_timeout(struct io_uring *ring, struct io_uring_cqe **cqe, unsigned wait_nr,
						struct __kernel_timespec *ts, sigset_t *sigmask)
{
	return URING_WAIT(GMP_REAL(io_uring_submit_and_wait_timeout)(ring, cqe, wait_nr, ts, sigmask));
}

/* An SQPOLL ring's wait for room in its submission queue. */
GMP_EXPORT int __io_uring_sqring_wait(struct io_uring *ring)
{
	return URING_WAIT(GMP_REAL(__io_uring_sqring_wait)(ring));
}

/* liburing's plain system call wrappers: a wait when asked for events. */
GMP_EXPORT int io_uring_enter(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags, sigset_t *sig)
{
	return URING_WAIT(GMP_REAL(io_uring_enter)(fd, to_submit, min_complete, flags, sig));
}

GMP_EXPORT int io_uring_enter2(unsigned fd, unsigned to_submit, unsigned min_complete, unsigned flags,
			       sigset_t *sig, size_t sz)
{
	return URING_WAIT(GMP_REAL(io_uring_enter2)(fd, to_submit, min_complete, flags, sig, sz));
}
