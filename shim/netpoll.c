/* The epoll instance behind the network poller (Go's netpoll_epoll.go).
 * Polled non-blockingly by findrunnable, blockingly by one idle M at a
 * time (sched.lastpoll == 0 meanwhile) with the next timer as its
 * timeout, and by sysmon when nobody has polled for 10 ms. */
#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>

#include "compat/debug.h"
#include "foreign.h"
#include "fork.h"
#include "lock.h"
#include "netpoll.h"
#include "proc.h"
#include "rtfd.h"
#include "runtime.h"
#include "sema.h"
#include "sys.h"
#include "sysmon.h"
#include "timer.h"

#define BREAK_TOKEN (~(uint64_t)0)
#define CLOCK_TOKEN (~(uint64_t)1)

static int epfd = -1;
static int breakfd = -1;          /* an eventfd that interrupts a blocking poll */
static struct mutex initlock;
static int32_t nwaiters;          /* Gs parked on descriptors, atomic */
static int64_t polluntil;         /* when the blocked poller wakes; 0: none blocked */
static uint32_t breakpending;     /* a break is on its way, atomic */
static int clockfd = -1;          /* a timerfd that becomes readable when CLOCK_REALTIME is set */
static uint32_t clockwatch;       /* someone has a realtime deadline: keep clockfd; atomic */
uint32_t gmp_nopwait2;

static long sys(long nr, long a, long b, long c, long d)
{
	return gmp_syscall6(nr, a, b, c, d, 0, 0);
}

/* Under initlock, with no epoll instance.  Its fds are the runtime's
 * (rtfd.c): high numbers the program's calls cannot close or replace. */
static void netpoll_create(void)
{
	int e = (int)sys(SYS_epoll_create1, EPOLL_CLOEXEC, 0, 0, 0);
	int b = (int)sys(SYS_eventfd2, 0, EFD_NONBLOCK | EFD_CLOEXEC, 0, 0);
	if (e < 0 || b < 0)
		gmp_throw("netpoll: cannot create the epoll instance");
	e = gmp_rtfd_adopt(e);
	b = gmp_rtfd_adopt(b);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = BREAK_TOKEN };
	if (sys(SYS_epoll_ctl, e, EPOLL_CTL_ADD, b, (long)&ev) < 0)
		gmp_throw("netpoll: cannot create the epoll instance");
	breakfd = b;
	gmp_rtfd_owner(b, &breakfd);
	__atomic_store_n(&epfd, e, __ATOMIC_RELEASE);
	gmp_rtfd_owner(e, &epfd);
}

static void netpoll_init(void)
{
	if (__atomic_load_n(&epfd, __ATOMIC_ACQUIRE) >= 0)
		return;
	lock(&initlock);
	if (epfd < 0)
		netpoll_create();
	unlock(&initlock);
}

/* Arms clockfd to expire far in the future, cancelled by any setting of
 * CLOCK_REALTIME: it then reads ECANCELED, which is all we want of it.
 * Re-armed after every such event. */
static void clock_arm(void)
{
	struct itimerspec its = { .it_value = { .tv_sec = (gmp_realtime() / 1000000000LL) + 100LL * 366 * 86400 } };
	sys(SYS_timerfd_settime, clockfd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, (long)&its, 0);
}

/* Under initlock, with epfd open. */
static void clock_open(void)
{
	int fd = (int)sys(SYS_timerfd_create, CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC, 0, 0);
	if (fd >= 0)
		fd = gmp_rtfd_adopt(fd);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = CLOCK_TOKEN };
	if (fd < 0 || sys(SYS_epoll_ctl, epfd, EPOLL_CTL_ADD, fd, (long)&ev) < 0) {
		/* Realtime deadlines then notice a clock change only when
		 * someone next looks at the timers (at the latest, at the
		 * deadline the clock had before). */
		if (fd >= 0)
			gmp_rtfd_close(fd);
		gmp_unsupported("watching CLOCK_REALTIME for changes (timerfd): realtime deadlines see a clock change late");
		return;
	}
	clockfd = fd;
	gmp_rtfd_owner(fd, &clockfd);
	clock_arm();
}

void gmp_netpoll_watch_clock(void)
{
	if (__atomic_load_n(&clockwatch, __ATOMIC_ACQUIRE))
		return;
	netpoll_init();
	lock(&initlock);
	if (!clockwatch) {
		clock_open();
		__atomic_store_n(&clockwatch, 1, __ATOMIC_RELEASE);
	}
	unlock(&initlock);
}

static long epoll_add(int fd, struct polldesc *pd)
{
	struct epoll_event ev = {
		/* EPOLLPRI too: urgent data wakes select's exceptfds and POLLPRI. */
		.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLPRI | EPOLLET,
		.data.u64 = (uint64_t)(uint32_t)fd | (uint64_t)pd->fdseq << 32,
	};
	long r = sys(SYS_epoll_ctl, epfd, EPOLL_CTL_ADD, fd, (long)&ev);
	if (r == -EEXIST) {
		/* A registration left by an fd closed behind our back (a raw
		 * close) while its description lives on elsewhere. */
		sys(SYS_epoll_ctl, epfd, EPOLL_CTL_DEL, fd, 0);
		r = sys(SYS_epoll_ctl, epfd, EPOLL_CTL_ADD, fd, (long)&ev);
	}
	return r;
}

/* A descriptor (re)used for a new file starts as not known to be empty. */
static void pd_undrain(struct polldesc *pd)
{
	__atomic_store_n(&pd->rdrained, __atomic_load_n(&pd->rgen, __ATOMIC_ACQUIRE) - 1, __ATOMIC_RELEASE);
	__atomic_store_n(&pd->rempty, 0, __ATOMIC_RELEASE);
}

static long setnb(int fd, bool on)
{
	long fl = sys(SYS_fcntl, fd, F_GETFL, 0, 0);
	if (fl < 0)
		return fl;
	return sys(SYS_fcntl, fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK, 0);
}

void gmp_netpoll_open(int fd, uint32_t pdflags, bool kernelnb)
{
	struct polldesc *pd = gmp_pd_slot(fd);
	bool ok = pd != NULL;
	if (ok) {
		netpoll_init();
		__atomic_add_fetch(&pd->fdseq, 1, __ATOMIC_ACQ_REL);
		pd_undrain(pd);
		pd->rtimeout = pd->wtimeout = 0;
		ok = epoll_add(fd, pd) == 0;
	}
	bool wantnb = !(pdflags & PD_EPOLL) && !(pdflags & PD_USERNB);
	if (ok && wantnb && !kernelnb && setnb(fd, true) < 0) {
		sys(SYS_epoll_ctl, epfd, EPOLL_CTL_DEL, fd, 0);
		ok = false;
	}
	if (!ok) {
		/* Not ours to poll: leave the fd exactly as the program asked. */
		if (kernelnb && !(pdflags & PD_USERNB))
			setnb(fd, false);
		return;
	}
	if (pdflags & PD_STREAM)
		pdflags |= PD_STREAMKIND;
	__atomic_store_n(&pd->flags, PD_POLLED | pdflags | (wantnb ? PD_SETNB : 0), __ATOMIC_RELEASE);
}

void gmp_netpoll_setnb(int fd, bool usernb)
{
	if (gmp_fd_alien)
		return;
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL || (pd->flags & PD_EPOLL))
		return;
	/* A compare-and-swap: the poller may clear PD_STREAM meanwhile. */
	uint32_t f = __atomic_load_n(&pd->flags, __ATOMIC_RELAXED), nf;
	do
		nf = (f & ~(PD_USERNB | PD_SETNB)) | (usernb ? PD_USERNB : PD_SETNB);
	while (!__atomic_compare_exchange_n(&pd->flags, &f, nf, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

void gmp_netpoll_share(int fd)
{
	if (gmp_fd_alien)
		return;
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return;
	uint32_t f = __atomic_load_n(&pd->flags, __ATOMIC_RELAXED);
	do {
		if (!(f & PD_SETNB))
			return;
	} while (!__atomic_compare_exchange_n(&pd->flags, &f, (f & ~PD_SETNB) | PD_FORKED, true, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	setnb(fd, false);
}

/* The words are bumped whether or not anyone waits; a word's wait queue
 * is looked up only if someone waits on it.  Most lookups would find
 * nobody (a server's G reads until EAGAIN and parks on one word of
 * three), and one that finds nobody walks a whole hash chain of other
 * fds' Gs, a cache miss each.  Sequentially consistent bumps against
 * gmp_netpoll_wait's count and re-read: it sees a bump or we see its
 * count. */
static struct g *pd_collect(struct polldesc *pd, uint32_t *word, struct g *list)
{
	__atomic_add_fetch(word, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&pd->nwait[word - &pd->rgen], __ATOMIC_SEQ_CST) == 0)
		return list;
	return gmp_semq_collect(word, list);
}

uint32_t gmp_netpoll_bumps;
uint32_t gmp_netpoll_calls;

/* Bumps every word of pd, gmp_netpoll_bumps first, and returns the Gs
 * parked on them, pushed onto list. */
static struct g *pd_wake(struct polldesc *pd, bool r, bool w, struct g *list)
{
	__atomic_add_fetch(&gmp_netpoll_bumps, 1, __ATOMIC_SEQ_CST);
	if (r)
		list = pd_collect(pd, &pd->rgen, list);
	if (w)
		list = pd_collect(pd, &pd->wgen, list);
	/* Also against the re-read in gmp_netpoll_wait_many: it sees this
	 * bump or we see its node. */
	list = pd_collect(pd, &pd->evgen, list);
	return gmp_pollwaiters_wake(pd, list);
}

void gmp_netpoll_close(int fd, bool del)
{
	if (gmp_fd_alien)
		return;
	struct polldesc *pd = gmp_pd_lookup(fd);
	if (pd == NULL)
		return;
	__atomic_store_n(&pd->flags, 0, __ATOMIC_RELEASE);
	if (del)
		sys(SYS_epoll_ctl, epfd, EPOLL_CTL_DEL, fd, 0);
	__atomic_add_fetch(&pd->fdseq, 1, __ATOMIC_ACQ_REL);
	struct g *gp = getg();
	gmp_ready_list(gp ? gp->m : NULL, pd_wake(pd, true, true, NULL));
}

bool gmp_netpoll_dup(int oldfd, int newfd)
{
	struct polldesc *old = gmp_pd_lookup(oldfd);
	struct polldesc *pd = gmp_pd_slot(newfd);
	if (old == NULL || pd == NULL)
		return false;
	uint32_t flags = __atomic_load_n(&old->flags, __ATOMIC_ACQUIRE);
	__atomic_add_fetch(&pd->fdseq, 1, __ATOMIC_ACQ_REL);
	pd_undrain(pd);
	if (epoll_add(newfd, pd) < 0)
		return false;
	pd->rtimeout = old->rtimeout;
	pd->wtimeout = old->wtimeout;
	__atomic_store_n(&pd->flags, flags, __ATOMIC_RELEASE);
	return true;
}

int32_t gmp_netpoll_waiters(void)
{
	return __atomic_load_n(&nwaiters, __ATOMIC_RELAXED);
}

void gmp_netpoll_waiter_count(int delta)
{
	/* The first waiter: an M may have gone to sleep without polling,
	 * there being nobody to poll for, and the next findrunnable, ours
	 * once this G parks, polls for us.  Unless this M has other Gs to run
	 * first: then sysmon polls, which may sleep long while nobody waits
	 * (with an M already in the poller, the poll is under way).  A
	 * thread-per-connection server's reader that parks again after each
	 * request woke sysmon each time. */
	if (__atomic_add_fetch(&nwaiters, delta, __ATOMIC_SEQ_CST) != delta || delta <= 0 ||
	    __atomic_load_n(&sched.lastpoll, __ATOMIC_SEQ_CST) == 0)
		return;
	struct g *gp = getg();
	struct p *pp = gp && gp->m ? gp->m->p : NULL;
	if (pp == NULL || gmp_gs_behind(pp))
		gmp_sysmon_hurry(HURRY_WATCH);
}

int gmp_netpoll_wait(struct polldesc *pd, uint32_t *gen, uint32_t val, uint32_t seq, int64_t deadline,
		     enum waitreason why)
{
	gmp_netpoll_waiter_count(1);
	uint32_t *n = &pd->nwait[gen - &pd->rgen];
	__atomic_add_fetch(n, 1, __ATOMIC_SEQ_CST);
	int r = __atomic_load_n(gen, __ATOMIC_SEQ_CST) == val ? gmp_futexwait(gen, val, deadline, why) : 0;
	__atomic_sub_fetch(n, 1, __ATOMIC_RELEASE);
	gmp_netpoll_waiter_count(-1);
	if (__atomic_load_n(&pd->fdseq, __ATOMIC_ACQUIRE) != seq)
		return EBADF;
	return r == ETIMEDOUT || r == EINTR ? r : 0;
}

static void readd(int fd, struct polldesc *pd, void *arg);
static void readd_child(int fd, struct polldesc *pd, void *arg);

/* Under initlock (or in a fork child): a new epoll instance, eventfd and
 * timerfd with every polled fd registered again.  Used by a fork child,
 * whose instance is the parent's, and when a raw system call closed one
 * of ours behind the interposed calls' back (gmp_rtfd_close then leaves
 * the number alone if the program has it now). */
static void netpoll_rebuild(bool forked)
{
	gmp_rtfd_close(epfd);
	gmp_rtfd_close(breakfd);
	epfd = breakfd = -1;
	netpoll_create();
	gmp_pd_foreach(forked ? readd_child : readd, NULL);
	/* The timerfd is shared with a fork's parent too, and a clock change
	 * is reported to one reader only. */
	if (clockfd >= 0) {
		gmp_rtfd_close(clockfd);
		clockfd = -1;
		clock_open();
	}
}

/* Our epoll instance or eventfd is gone (EBADF) or the number is another
 * file now (EINVAL): rebuilt once, not polled in a loop. */
static void netpoll_lost(int fd)
{
	lock(&initlock);
	if (fd == epfd || fd == breakfd) {
		gmp_unsupported("a raw close of the runtime's epoll descriptors: rebuilt");
		netpoll_rebuild(false);
	}
	unlock(&initlock);
}

struct g *gmp_netpoll(int64_t delay)
{
	if (__atomic_load_n(&epfd, __ATOMIC_ACQUIRE) < 0)
		return NULL;
	struct epoll_event evs[128];
	int ep = __atomic_load_n(&epfd, __ATOMIC_ACQUIRE);
	uint64_t call = __atomic_add_fetch(&gmp_netpoll_calls, 1, __ATOMIC_SEQ_CST);
	long n = -ENOSYS;
	if (delay > 0 && !__atomic_load_n(&gmp_nopwait2, __ATOMIC_RELAXED)) {
		/* ns resolution: a timer due in 100 us must not sleep 1 ms. */
		struct timespec ts = { delay / 1000000000LL, delay % 1000000000LL };
		n = gmp_syscall6(SYS_epoll_pwait2, ep, (long)evs, 128, (long)&ts, 0, 8);
		if (n == -ENOSYS)
			__atomic_store_n(&gmp_nopwait2, 1, __ATOMIC_RELAXED);
	}
	if (n == -ENOSYS) {
		int ms;
		if (delay < 0)
			ms = -1;
		else if (delay == 0)
			ms = 0;
		else if (delay < 1000000)
			ms = 1; /* epoll_wait's resolution: a short timer wakes up to 1 ms late */
		else
			ms = delay > 1000000000LL ? 1000 : (int)(delay / 1000000);
		n = sys(SYS_epoll_pwait, ep, (long)evs, 128, ms); /* no mask: epoll_wait, on every architecture */
	}
	if (n == -EBADF || n == -EINVAL) {
		netpoll_lost(ep);
		return NULL;
	}
	struct g *list = NULL;
	for (long i = 0; i < n; i++) {
		uint64_t data = evs[i].data.u64;
		if (data == BREAK_TOKEN) {
			uint64_t v;
			sys(SYS_read, breakfd, (long)&v, sizeof v, 0);
			__atomic_store_n(&breakpending, 0, __ATOMIC_RELEASE);
			continue;
		}
		if (data == CLOCK_TOKEN) {
			/* CLOCK_REALTIME was set: the read says ECANCELED and
			 * disarms it.  Whoever polled looks at the timers next
			 * (findrunnable, sysmon), comparing realtime deadlines
			 * with the clock as it is now. */
			uint64_t v;
			if (sys(SYS_read, clockfd, (long)&v, sizeof v, 0) == -ECANCELED)
				clock_arm();
			continue;
		}
		struct polldesc *pd = gmp_pd_lookup((int)(uint32_t)data);
		if (pd == NULL || __atomic_load_n(&pd->fdseq, __ATOMIC_ACQUIRE) != (uint32_t)(data >> 32))
			continue; /* an fd closed since */
		uint32_t e = evs[i].events;
		/* After an end of file or an error a read that found no data
		 * returns at once, and TCP urgent data stops a read short at its
		 * mark with data behind it: a short read no longer says that
		 * the next one would block (fdio.c).  Urgent data, and an error
		 * queued aside (a transmit timestamp), are not what a read
		 * returns: a read that says EAGAIN no longer says that poll
		 * would wait.  Changed before the bump, so a reader that sees
		 * the bump sees this. */
		if ((e & (EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLPRI)) &&
		    (__atomic_load_n(&pd->flags, __ATOMIC_RELAXED) & PD_STREAM))
			__atomic_and_fetch(&pd->flags, ~PD_STREAM, __ATOMIC_RELAXED);
		if ((e & (EPOLLPRI | EPOLLERR)) && !(__atomic_load_n(&pd->flags, __ATOMIC_RELAXED) & PD_ASIDE))
			__atomic_or_fetch(&pd->flags, PD_ASIDE, __ATOMIC_RELAXED);
		__atomic_store_n(&pd->evmask, call << 32 | e, __ATOMIC_RELAXED); /* published by pd_wake's bumps */
		bool r = e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLPRI);
		bool w = e & (EPOLLOUT | EPOLLHUP | EPOLLERR);
		list = pd_wake(pd, r, w, list);
	}
	return list;
}

/* The M that is about to block in the poller says until when. */
void gmp_netpoll_set_until(int64_t until)
{
	__atomic_store_n(&polluntil, until, __ATOMIC_RELEASE);
}

void gmp_netpoll_wake_before(int64_t when)
{
	int64_t until = __atomic_load_n(&polluntil, __ATOMIC_ACQUIRE);
	if (until == 0 || (until > 0 && until <= when))
		return;
	if (__atomic_exchange_n(&breakpending, 1, __ATOMIC_ACQ_REL))
		return;
	uint64_t one = 1;
	int b = __atomic_load_n(&breakfd, __ATOMIC_ACQUIRE);
	long r = sys(SYS_write, b, (long)&one, sizeof one, 0);
	if (r == -EBADF || r == -EINVAL) {
		netpoll_lost(b);
		__atomic_store_n(&breakpending, 0, __ATOMIC_RELEASE);
	}
}

static void readd(int fd, struct polldesc *pd, void *arg)
{
	(void)arg;
	if (epoll_add(fd, pd) < 0)
		__atomic_store_n(&pd->flags, 0, __ATOMIC_RELEASE);
}

/* In a fork child.  The program's epoll instances it inherited are its
 * parent's too, and polling one from here would ask its ready fds in the
 * child's name: a signalfd there then says no for the parent's pending
 * signal and leaves the parent's ready list (lost: tests/integration/
 * sigurg_fd).  The child waits on those in the kernel, as on any fd we
 * do not watch. */
static void readd_child(int fd, struct polldesc *pd, void *arg)
{
	if (pd->flags & PD_EPOLL)
		__atomic_store_n(&pd->flags, 0, __ATOMIC_RELEASE);
	else
		readd(fd, pd, arg);
}

/* A child that execs gives the fds it keeps their blocking description
 * back (interpose/exec.c), and the description is ours too: our next call
 * on it may then block in the kernel, so it must be one the M may block
 * in (fdio.c).  Close-on-exec ones too: the child may clear the flag
 * before its exec (subprocess's pass_fds, posix_spawn's file actions), as
 * Python's spawn start method does with the pipe its parent then reads;
 * that read blocked the M holding the only P. */
static void mark_forked(int fd, struct polldesc *pd, void *arg)
{
	(void)arg;
	if (pd->flags & PD_SETNB)
		__atomic_or_fetch(&pd->flags, PD_FORKED, __ATOMIC_RELEASE);
}

void netpoll_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&initlock);
		return;
	}
	if (phase == FORK_PARENT) {
		unlock(&initlock);
		gmp_pd_foreach(mark_forked, NULL);
		return;
	}
	/* The epoll instance is shared with the parent: watching it from
	 * here would steal the parent's events.  Build our own. */
	initlock = (struct mutex){ 0 };
	nwaiters = 0;
	gmp_pd_drop_waiters();
	polluntil = 0;
	breakpending = 0;
	if (epfd < 0)
		return;
	netpoll_rebuild(true);
}
