/* Calls that create fds the netpoller can watch.  We create them with
 * O_NONBLOCK on the description (so a G can park instead of blocking its
 * M) and remember whether the program asked for it, which is all it ever
 * sees (fd_control.c). */
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "compat/debug.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/netpoll.h"
#include "shim/rtsig.h"
#include "shim/sys.h"

/* SOCK_NONBLOCK, O_NONBLOCK, EFD_NONBLOCK, TFD_NONBLOCK, SFD_NONBLOCK and
 * IN_NONBLOCK are all the same bit. */
#define NB O_NONBLOCK

static long created(long fd, uint32_t pdflags)
{
	if (fd >= 0)
		gmp_netpoll_open((int)fd, pdflags, true);
	return gmp_ret(fd);
}

static uint32_t usernb(int flags)
{
	return flags & NB ? PD_USERNB : 0;
}

/* TCP is a byte stream whose short read leaves it empty (shim/fdio.c);
 * not so datagrams, SCTP's messages, or AF_UNIX streams, whose reads stop
 * at passed fds and, under SO_PASSCRED, at each writer's data. */
static uint32_t stream(int domain, int type, int protocol)
{
	bool tcp = (domain == AF_INET || domain == AF_INET6) && (protocol == 0 || protocol == IPPROTO_TCP);
	return tcp && (type & 0xf) == SOCK_STREAM ? PD_STREAM : 0;
}

GMP_EXPORT int socket(int domain, int type, int protocol)
{
	gmp_ensure_init();
	return (int)created(gmp_syscall(SYS_socket, domain, type | NB, protocol),
			    PD_SOCKET | stream(domain, type, protocol) | usernb(type));
}

GMP_EXPORT int socketpair(int domain, int type, int protocol, int sv[2])
{
	gmp_ensure_init();
	long r = gmp_syscall6(SYS_socketpair, domain, type | NB, protocol, (long)sv, 0, 0);
	if (r == 0) {
		gmp_netpoll_open(sv[0], PD_SOCKET | usernb(type), true);
		gmp_netpoll_open(sv[1], PD_SOCKET | usernb(type), true);
	}
	return (int)gmp_ret(r);
}

GMP_EXPORT int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	long r = gmp_fd_syscall(fd, 'r', SYS_accept4, (long)addr, (long)len, flags | NB, 0, 0);
	/* Of the listener's kind, not of its state: the hang-up of a socket
	 * not yet listening, if the poller saw it, cleared its PD_STREAM. */
	struct polldesc *lpd = gmp_pd_lookup(fd);
	uint32_t kind = lpd && (__atomic_load_n(&lpd->flags, __ATOMIC_ACQUIRE) & PD_STREAMKIND) ? PD_STREAM : 0;
	return (int)created(r, PD_SOCKET | kind | usernb(flags));
}

GMP_EXPORT int accept(int fd, struct sockaddr *addr, socklen_t *len)
{
	GMP_CANCEL_POINT;
	return accept4(fd, addr, len, 0);
}

GMP_EXPORT int pipe2(int fds[2], int flags)
{
	gmp_ensure_init();
	long r = gmp_syscall(SYS_pipe2, fds, flags | NB, 0);
	if (r == 0) {
		/* O_DIRECT: packets; O_NOTIFICATION_PIPE (O_EXCL): records. */
		uint32_t kind = flags & (O_DIRECT | O_EXCL) ? 0 : PD_STREAM;
		gmp_netpoll_open(fds[0], kind | usernb(flags), true);
		gmp_netpoll_open(fds[1], kind | usernb(flags), true);
	}
	return (int)gmp_ret(r);
}

GMP_EXPORT int pipe(int fds[2])
{
	return pipe2(fds, 0);
}

GMP_EXPORT int eventfd(unsigned int initval, int flags)
{
	gmp_ensure_init();
	return (int)created(gmp_syscall(SYS_eventfd2, initval, flags | NB, 0), usernb(flags));
}

GMP_EXPORT int timerfd_create(int clockid, int flags)
{
	gmp_ensure_init();
	return (int)created(gmp_syscall(SYS_timerfd_create, clockid, flags | NB, 0), usernb(flags));
}

GMP_EXPORT int signalfd(int fd, const sigset_t *mask_in, int flags)
{
	/* The runtime's signal is never the program's to read: its requests
	 * must reach the runtime's handler, not a reader.  SIGURG the runtime
	 * leaves to the program (it moves to a realtime signal). */
	gmp_ensure_init();
	sigset_t own = *mask_in;
	if (!gmp_rtsig_take_sync(&own))
		gmp_unsupported("signalfd: the runtime keeps its signal (GMP_PREEMPTSIG, or no realtime signal "
				"free); this signalfd will not see it");
	sigdelset(&own, __atomic_load_n(&gmp_preemptsig, __ATOMIC_ACQUIRE));
	const sigset_t *mask = &own;
	if (fd != -1) /* changes the mask of an existing signalfd */
		return (int)gmp_ret(gmp_syscall6(SYS_signalfd4, fd, (long)mask, 8, flags, 0, 0));
	return (int)created(gmp_syscall6(SYS_signalfd4, -1, (long)mask, 8, flags | NB, 0, 0),
			    PD_SIGNALFD | usernb(flags));
}

GMP_EXPORT int inotify_init1(int flags)
{
	gmp_ensure_init();
	return (int)created(gmp_syscall(SYS_inotify_init1, flags | NB, 0, 0), usernb(flags));
}

GMP_EXPORT int inotify_init(void)
{
	return inotify_init1(0);
}

GMP_EXPORT int epoll_create1(int flags)
{
	gmp_ensure_init();
	return (int)created(gmp_syscall(SYS_epoll_create1, flags, 0, 0), PD_EPOLL);
}

GMP_EXPORT int epoll_create(int size)
{
	if (size <= 0)
		return (int)gmp_ret(-EINVAL);
	return epoll_create1(0);
}
