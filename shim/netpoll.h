/* The network poller (Go's netpoll.go and netpoll_epoll.go).  Every fd the
 * program creates through us that epoll can watch (sockets, pipes, FIFOs,
 * eventfd, timerfd, signalfd, inotify, epoll) is registered once,
 * edge-triggered, with our epoll instance.  A G that would block on it
 * parks on one of the fd's generation words below; the poller bumps the
 * word on every readiness edge and readies the Gs parked on it.  A G
 * reads the word before it tries the I/O, so an edge that arrives between
 * its EAGAIN and its park only makes the park fail: no wake-up is lost. */
#ifndef GMP_NETPOLL_H
#define GMP_NETPOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <sys/select.h>

#include "runtime.h"

struct pollwaiter;

struct polldesc {
	uint32_t rgen;      /* bumped when the fd may have become readable */
	uint32_t wgen;      /* ... writable */
	uint32_t evgen;     /* ... either (single-fd poll waits here) */
	uint32_t fdseq;     /* bumped when the fd is closed: waiters get EBADF */
	uint32_t rdrained;  /* rgen as read before the last read that emptied the
	                       stream (PD_STREAM): while rgen still holds it no
	                       edge came since, so a read would say EAGAIN */
	uint32_t flags;     /* PD_*, atomic */
	uint64_t rempty;    /* a read that did not park said EAGAIN: rgen as read
	                       before it, and gmp_netpoll_calls above (<< 32); 0
	                       none.  A read that got anything clears it */
	uint32_t nwait[3];  /* Gs in gmp_netpoll_wait on rgen, wgen, evgen */
	struct mutex wlock; /* guards waiters */
	struct pollwaiter *waiters; /* Gs waiting on several fds (poll, select) */
	uint64_t evmask;    /* the EPOLL* readiness the poller last harvested, and
	                       above it (<< 32) the gmp_netpoll_calls of that poll;
	                       stored before the bumps it caused */
	int64_t rtimeout;   /* SO_RCVTIMEO in ns, 0 for none */
	int64_t wtimeout;   /* SO_SNDTIMEO in ns, 0 for none */
};

/* One fd of a G that waits on several at once (Go's sudog in a select):
 * the G's nodes (on its stack, mapped for many fds) are linked on each
 * fd's descriptor while it is parked, and all point at one wake word of
 * the G's.  Whoever flips that word from 0 first readies the G; the
 * others see 1 and leave it. */
struct pollwaiter {
	struct polldesc *pd;        /* set by the caller */
	uint32_t gen;               /* pd->evgen as read before the caller's probe */
	struct pollwaiter *next;    /* on pd->waiters while parked */
	struct pollwaiter **pprev;
	uint32_t *fired;            /* the parked G's wake word */
};

#define PD_POLLED 0x1   /* registered with our epoll instance */
#define PD_USERNB 0x2   /* the program itself asked for O_NONBLOCK */
#define PD_SETNB 0x4    /* we set O_NONBLOCK on the file description */
#define PD_SOCKET 0x8
#define PD_EPOLL 0x10   /* an epoll instance of the program's */
#define PD_FORKED 0x20  /* open in a fork child too, which may exec and make it blocking */
#define PD_STREAM 0x40  /* a byte stream (SOCK_STREAM, a pipe or FIFO): a short read emptied it */
#define PD_SIGNALFD 0x80 /* reads drop the runtime's requests (rtsig.c) */
#define PD_STREAMKIND 0x100 /* opened with PD_STREAM, which the poller may clear since:
                               what a listening socket's accepted ones are */
#define PD_ASIDE 0x200  /* the poller saw urgent data or an error (EPOLLPRI, EPOLLERR) on it:
                           a read may say EAGAIN while either waits (gmp_fd_found_empty) */

/* The descriptor of fd if it is registered, else NULL. */
/* fd's descriptor slot, allocated on first use (NULL: fd out of range). */
struct polldesc *gmp_pd_slot(int fd);
struct polldesc *gmp_pd_lookup(int fd);

/* Forgets every G waiting on an fd (fork child: they are gone). */
void gmp_pd_drop_waiters(void);

/* Calls fn on every registered fd, in fd order. */
void gmp_pd_foreach(void (*fn)(int fd, struct polldesc *pd, void *arg), void *arg);

/* Registers fd, which the program just created through us.  pdflags:
 * PD_USERNB (the program asked for O_NONBLOCK), PD_SOCKET, PD_EPOLL.
 * kernelnb: the description already has O_NONBLOCK (we asked for it at
 * creation).  An fd epoll cannot watch is left as the program asked. */
void gmp_netpoll_open(int fd, uint32_t pdflags, bool kernelnb);
/* Forgets fd before it is closed (or replaced by dup2), waking every G
 * parked on it; they see EBADF.  del: remove it from epoll (the fd still
 * refers to the same file). */
void gmp_netpoll_close(int fd, bool del);
/* Something outside the shim is going to use fd's description (another
 * program: SCM_RIGHTS, exec, posix_spawn; stdio's own calls: fdopen, fds
 * 0-2) and must find it in the blocking mode the program set: unless the
 * program made it non-blocking, O_NONBLOCK comes off, and our own calls
 * on fd go to the kernel as blocking ones from now on (PD_FORKED).  Gs
 * parked on it stay parked. */
void gmp_netpoll_share(int fd);
/* Records the program's own O_NONBLOCK choice for fd. */
void gmp_netpoll_setnb(int fd, bool usernb);
/* Registers newfd as a copy of oldfd (dup); false if oldfd is not ours. */
bool gmp_netpoll_dup(int oldfd, int newfd);

/* Parks the running G on *gen (one of pd's words) while it still holds
 * val, until deadline (monotonic ns, -1 none).  Returns 0 when the word
 * moved (try the I/O again), ETIMEDOUT, or EBADF if fd was closed since
 * seq was read. */
int gmp_netpoll_wait(struct polldesc *pd, uint32_t *gen, uint32_t val, uint32_t seq, int64_t deadline,
		     enum waitreason why);

/* Parks the running G until one of the n descriptors in w has moved past
 * the evgen its caller read before probing (a readiness edge or a close),
 * or deadline (monotonic ns, -1 none) passes.  Returns 0 (probe again) or
 * ETIMEDOUT. */
int gmp_netpoll_wait_many(struct pollwaiter *w, int n, int64_t deadline);
/* The poller's half: pd->evgen was just bumped (sequentially consistent);
 * pushes the Gs waiting on pd through pollwaiters onto list. */
struct g *gmp_pollwaiters_wake(struct polldesc *pd, struct g *list);
/* Counts a G parked on the poller (it only polls while someone waits). */
void gmp_netpoll_waiter_count(int delta);

/* Returns the Gs made ready by I/O, waiting up to delay ns (0 polls,
 * -1 blocks). */
struct g *gmp_netpoll(int64_t delay);
/* Wakes an M blocked in gmp_netpoll if it would sleep past when. */
void gmp_netpoll_wake_before(int64_t when);
/* The poller M says until when it will block (-1 forever, 0 done). */
void gmp_netpoll_set_until(int64_t until);
void netpoll_fork(enum gmp_fork_phase phase);
/* From now on, a setting of CLOCK_REALTIME wakes the blocked poller
 * (a timerfd with TFD_TIMER_CANCEL_ON_SET), so realtime deadlines are
 * looked at again.  Call outside every runtime lock (takes initlock). */
void gmp_netpoll_watch_clock(void);

/* The park-until-ready loop for one system call on fd (shim/fdio.c).
 * Behaves as the call would on a blocking fd (or as is on the program's
 * own non-blocking ones).  mode is 'r' or 'w'.  Returns the kernel's
 * result, -errno on failure. */
long gmp_fd_syscall(int fd, int mode, long nr, long a1, long a2, long a3, long a4, long a5);

/* The same for write-like calls (a1 = buffer, a2 = length) on a stream:
 * loops until all is written, as a blocking write does. */
long gmp_fd_write_all(int fd, long nr, const char *buf, size_t len, long a3, long a4, long a5);
/* A call between two fds (splice, tee; a = its arguments) as it behaves
 * when both are blocking. */
long gmp_fd_syscall2(int in, int out, long nr, const long a[6]);
/* A read-like call nr (read, readv, recvfrom, recvmsg, recvmmsg) on fd
 * that must not park (MSG_DONTWAIT): made as is, its EAGAIN remembered
 * for a poll that follows (gmp_fd_found_empty). */
long gmp_fd_read_nowait(int fd, long nr, long a1, long a2, long a3, long a4, long a5);
/* connect(2) as on a blocking socket. */
long gmp_fd_connect(int fd, const void *addr, unsigned len);
/* What a caller read before a probe of its own (gmp_netpoll_look). */
struct netpoll_look {
	uint32_t epoch; /* gmp_netpoll_epoch() */
	uint32_t calls; /* gmp_netpoll_calls */
};
/* Parks until probe(arg), a non-blocking readiness call on the polled fd
 * (poll of that fd, epoll_wait on it), returns non-zero or deadline
 * (monotonic ns, -1 none, 0 probe once) passes.  probed: NULL, or what
 * the caller read before a probe of its own that found nothing, which
 * then stands for the first one here.  answer: NULL, or what the call
 * would return given the readiness an edge that woke the G reported
 * (pd->evmask), 0 where that cannot tell (a probe then decides). */
long gmp_fd_wait_ready(int fd, long (*probe)(void *), long (*answer)(void *, uint32_t), void *arg, int64_t deadline,
		       const struct netpoll_look *probed);
/* Whether a read of fd said EAGAIN and no readiness edge of its has come
 * since, so that a poll for reading need not look before it parks: that
 * read was the look, and *look is to be passed to gmp_fd_wait_ready as
 * what was read before it. */
bool gmp_fd_found_empty(int fd, struct netpoll_look *look);
/* epoll_wait (ev, max) until deadline on the program's epoll fd epfd:
 * in the kernel as natively, its P given up, when gmp_kernelwait_begin
 * allows (syscall.h), else as gmp_fd_wait_ready with probe. */
long gmp_fd_epoll_wait(int epfd, void *ev, int max, int64_t deadline, long (*probe)(void *), void *arg);
/* Set (atomic) once the kernel answered epoll_pwait2 with ENOSYS: the
 * netpoller and kernel waits fall back without asking again. */
extern uint32_t gmp_nopwait2;

/* poll/ppoll without a signal mask, and select/pselect without one
 * (shim/pollselect.c), as the kernel runs them but parking the G while
 * every fd that could block is polled; deadline is monotonic ns, -1 for
 * none, 0 to look once.  Return the kernel's result, -errno on failure. */
long gmp_poll(struct pollfd *fds, unsigned long n, int64_t deadline);
long gmp_select(int n, fd_set *r, fd_set *w, fd_set *e, int64_t deadline);

/* Moves before any descriptor's words do (a readiness edge, a close).
 * Read before a probe that found nothing and again after the words to
 * wait on: unchanged, no edge came between the two that the words would
 * not show, and the probe need not be made again before parking. */
extern uint32_t gmp_netpoll_bumps;
static inline uint32_t gmp_netpoll_epoch(void)
{
	return __atomic_load_n(&gmp_netpoll_bumps, __ATOMIC_SEQ_CST);
}

/* Raised (sequentially consistent) as each poll of the epoll instance
 * begins, the value it raised it to stored with the readiness it harvests
 * (pd->evmask): one that began after a probe's look harvested after it. */
extern uint32_t gmp_netpoll_calls;
static inline struct netpoll_look gmp_netpoll_look(void)
{
	return (struct netpoll_look){ gmp_netpoll_epoch(), __atomic_load_n(&gmp_netpoll_calls, __ATOMIC_SEQ_CST) };
}

/* Gs parked on descriptors (the poller is worth asking). */
int32_t gmp_netpoll_waiters(void);

#endif
