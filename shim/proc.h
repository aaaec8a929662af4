/* The scheduler (proc.c): Ps and Ms, readying and parking, finding work.
 * The invariants they keep are written once, at the top of proc.c; each
 * declaration below says what its caller must hold ("sched.lock held",
 * "on g0", "on a G") where that is not "nothing". */
#ifndef GMP_PROC_H
#define GMP_PROC_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "fork.h"
#include "runtime.h"

/* The M of the g0 stack we are on.  On g0 only: a G's stack is no M's. */
static inline struct m *g0_getm(void)
{
	return (struct m *)(gmp_arch_sp() & ~(uintptr_t)(M_REGION_SIZE - 1));
}

/* Throws unless gp's status was oldval.  Any context. */
void casgstatus(struct g *gp, uint32_t oldval, uint32_t newval);

/* Ps and Ms.  sched.lock held for pidleput, pidleget and mput. */
void acquirep(struct m *mp, struct p *pp); /* pp idle, mp holds none */
void pidleput(struct p *pp);               /* pp's run queue empty */
struct p *pidleget(void);
void mput(struct m *mp);
/* Takes an idle P for mp (holding none), if any is idle.  Takes sched.lock. */
bool acquireidlep(struct m *mp);
/* Starts an M to run pp (an idle P if NULL).  With spinning, the caller
 * already counted the new M in sched.nmspinning.  sched.lock not held. */
void startm(struct p *pp, bool spinning);
void wakep(void);
/* On g0: sleeps until startm hands mp a P or until deadline (monotonic
 * ns, -1 none); false if it timed out without one. */
bool stopm(struct m *mp, int64_t deadline);

/* Readying.  goready: on a G, or on a thread that is no G.  gmp_ready_on
 * and gmp_ready_list: mp is the caller's M (NULL: not on a G, as sysmon);
 * the Gs go on its P, or globally when it has none. */
void goready(struct g *gp);
void gmp_ready_on(struct m *mp, struct g *gp);
void gmp_ready_list(struct m *mp, struct g *list);
/* Gs readied off-P (timers, the poller): the global queue, and Ms for the
 * idle Ps.  sched.lock not held. */
void injectglist(struct g *list);
/* gp, which a poll readied on mp (mp->polledwhen set), switched out, or
 * is about to leave its P in a wait in the kernel: records how long it
 * held the P (proc.c, injectglist_p).  mp's own thread. */
void gmp_polled_done(struct m *mp, struct g *gp);
/* pp's M or sysmon, at now: wakes an M for Gs kept on pp past their due
 * time (proc.c, injectglist_p); true if it did. */
bool wake_if_due(struct p *pp, int64_t now);
/* gp, woken from a wait, is about to be queued by the caller: counted for
 * sysmon's wake-up preemption if no P is idle.  count: the caller's P's
 * wokeput (the P's owner), or sched.wokeput with sched.lock held. */
void gmp_markwoke(struct g *gp, uint32_t *count);

/* On a G holding a P (entries into the shim take it back first). */
void mcall(void (*fn)(struct g *, void *), void *arg);
void gopark(void (*unlockf)(struct g *, void *), void *arg, enum waitreason reason);
void gosched(void);
void gosched_m(struct g *gp, void *arg); /* on g0, as mcall's fn */
/* gosched_m's arg for a realtime G preempted by a higher one: it goes
 * back before the others of its priority (rtprio.c). */
#define GOSCHED_HEAD ((void *)1)
/* Whether a realtime G asked to yield gives way (only to one of its
 * priority or above, rtprio.c; yield: sched_yield's, which gives way to an
 * equal one too), and gosched_m's arg for it. */
bool gosched_rt(struct g *gp, bool yield, void **how);
void goexit(void) __attribute__((noreturn));
void newproc(struct g *gp);
/* Whether a G waits that pp's next schedule would take: on its ring, the
 * global queue or the realtime queue (racy: a hint).  Any context. */
bool gmp_gs_behind(struct p *pp);
/* Nothing else to run anywhere and no timer due (pp: the caller's P). */
bool gmp_nothing_else(struct p *pp);

/* On g0. */
void schedule(void) __attribute__((noreturn));
void mstart_on_g0(struct m *mp);
void gmp_m0_g0_entry(void *arg);

/* Start-up, on the main thread before any other M exists. */
void gmp_procs_init(int nprocs);
void gmp_bootstrap_m0(struct m *m0, struct g *gp);

void sched_fork(enum gmp_fork_phase phase);

/* Keeps the running G on its M, and the M to it, for reason (GLOCK_*,
 * runtime.h) until gmp_unlockosthread(reason) or its exit. */
void gmp_lockosthread(uint32_t reason);
void gmp_unlockosthread(uint32_t reason);
/* The running G's fork M: the thread the kernel takes for the parent of
 * the processes the G forks, and so for the tracer of those that ask
 * PTRACE_TRACEME.  _hop moves the G onto it, locked there (GLOCK_HOP)
 * until gmp_unlockosthread(GLOCK_HOP); false if the G has none. */
bool gmp_forkm_hop(void);
void gmp_children_waited(bool reaped, bool none);

/* The bookkeeping of a park: when (for the dump) and how often (counters).
 * pp: the parking G's P. */
static inline void gmp_note_park(struct g *gp, struct p *pp, uint32_t reason)
{
	gp->waitsince = gmp_coarsetime();
	pp->ctr.park[reason % GMP_NWAITREASON]++;
}

#endif
