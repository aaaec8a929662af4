/* Timers for timed parks (Go's time.go, reduced to what a park needs).
 * Each P owns two 4-ary min-heaps: one keyed on CLOCK_MONOTONIC, one on
 * CLOCK_REALTIME, so an absolute realtime deadline follows a change of
 * the clock as POSIX requires (the realtime one is compared with the
 * realtime clock whenever it is looked at, never converted ahead of
 * time).  A timed park adds its G's timer to the heap of the P it runs
 * on; the owner runs due timers from schedule/findrunnable, and anyone
 * may run another P's (findrunnable before it gives up its P, an M woken
 * by the earliest deadline, sysmon for a P held in a syscall). */
#ifndef GMP_TIMER_H
#define GMP_TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "compat/realsym.h"
#include "fork.h"
#include "lock.h"

struct g;
struct p;

/* Deadlines are int64_t: -1 none, else CLOCK_MONOTONIC ns, or, with this
 * bit set, CLOCK_REALTIME ns since the epoch (2^62 ns is year 2116, so
 * the bit never collides with a real value of either clock). */
#define GMP_DEADLINE_REALTIME (1LL << 62)

static inline bool gmp_deadline_is_realtime(int64_t d)
{
	return d >= 0 && (d & GMP_DEADLINE_REALTIME) != 0;
}

/* CLOCK_MONOTONIC in ns (vDSO: no errno, no TLS).  Inline: the scheduler
 * reads it on every yield and park. */
static inline int64_t gmp_nanotime(void)
{
	struct timespec ts;
	gmp_clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Monotonic time at the kernel tick's resolution (a few ms): enough to say
 * how long a G has waited, and a plain read of the vDSO data page, where a
 * precise clock_gettime measured ~0.6 us per park inside a G on the
 * development VM. */
static inline int64_t gmp_coarsetime(void)
{
	struct timespec ts;
	gmp_clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* CLOCK_REALTIME in ns (vDSO; no errno, no TLS), plus the skew a unit
 * test may inject to play a clock change. */
int64_t gmp_realtime(void);
/* ns from now until deadline d (>= 0); <= 0 once it has passed. */
int64_t gmp_deadline_left(int64_t d);
/* Where the kernel's CLOCK_REALTIME will read realtime deadline d. */
int64_t gmp_deadline_kernel_realtime(int64_t d);
/* The relative timeout a system call takes for deadline d: NULL for none
 * (d < 0), else ts filled with the time left, 0 once it has passed. */
struct timespec *gmp_deadline_timeout(int64_t d, struct timespec *ts);

enum { TIMER_IDLE = 0, TIMER_QUEUED = 1, TIMER_FIRING = 2 };

struct gmp_timer {
	int64_t when;         /* a deadline as above */
	int index;            /* position in its heap, -1 when not queued */
	uint32_t state;       /* TIMER_*, atomic: FIRING while a collector holds it */
	struct p *pp;         /* the P whose heap holds it */
	struct g *gp;         /* the G to wake */
	const void *waitaddr; /* wait queue the G is parked on, if any */
};

struct timerheap {
	struct gmp_timer **h;
	int n, cap;
	int64_t when0;        /* h[0]'s key (clock ns), -1 when empty; read without the lock */
};

/* The timers of one P (embedded in struct p). */
struct ptimers {
	struct mutex lock;
	struct timerheap mono;
	struct timerheap real;
};

/* Queues t (t->when, t->gp, t->waitaddr set) on the running G's P. */
void gmp_timer_add(struct gmp_timer *t);
/* Returns true if the timer was removed before it fired; otherwise waits
 * until a collector that took it has finished with it. */
bool gmp_timer_del(struct gmp_timer *t);
/* The earliest deadline over every P as CLOCK_MONOTONIC ns, or -1. */
int64_t gmp_timers_next(void);
/* The same for one P. */
int64_t gmp_timers_next_p(struct p *pp);
/* Whether pp has a timer at least slack ns overdue at now (monotonic
 * ns).  Cheap: two atomic loads, and the realtime clock if it has a
 * realtime timer. */
bool gmp_timers_due(struct p *pp, int64_t now, int64_t slack);
/* Pops pp's due timers and times out their Gs; returns the Gs to ready,
 * linked through schedlink (any context: takes only runtime locks). */
struct g *gmp_timers_collect(struct p *pp, int64_t now);
/* The same for every P except skip (NULL: all), only Ps whose earliest
 * timer is overdue by gmp_timers_slack(pp, slack). */
struct g *gmp_timers_collect_all(struct p *skip, int64_t now, int64_t slack);
/* One idle M at a time sleeps until the next timer (proc.go has its
 * netpoller M do it): with each sleeping until the earliest, a timer woke
 * every idle M.  An M about to sleep, next being the earliest deadline it
 * must see to: returns next if it is to watch (then gmp_timers_unwatch
 * after the sleep), -1 if an M watches for one as early already. */
int64_t gmp_timers_watch(int64_t next);
void gmp_timers_unwatch(int64_t until);
/* Whether an M sleeps until when or earlier to run the timers due. */
bool gmp_timers_watched(int64_t when);
/* How overdue pp's timers may get before sysmon runs them (slack > 0)
 * or a spinning M (0): slack, none for a P held in a syscall (it runs
 * none itself) or an idle one; -1 (leave them) if slack > 0 and an idle
 * M sleeps until them (gmp_timers_watch). */
int64_t gmp_timers_slack(struct p *pp, int64_t slack);
/* Queued realtime timers over all Ps: while there are any, an idle M
 * watches for clock changes in the poller (netpoll.c). */
int32_t gmp_timers_realtime(void);

void timers_fork(enum gmp_fork_phase phase);

/* For unit tests: added to every reading of CLOCK_REALTIME. */
void gmp_timers_set_skew(int64_t ns);

#endif
