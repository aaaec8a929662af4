/* Realtime policies acted upon (rtprio.c): the realtime run queue, the
 * preemption of lower-priority Gs, priority boosts of PI/PP mutexes, and
 * the kernel policy of the Ms while the process has a single thread.
 * Everything here is gated by gmp_rt_active(): a program with no realtime
 * G pays one load of a global that never changes. */
#ifndef GMP_RTPRIO_H
#define GMP_RTPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "preempt.h"
#include "runtime.h"

/* Live Gs whose rtprio is above 0.  Atomic. */
extern uint32_t gmp_nrt;

static inline bool gmp_rt_active(void)
{
	return __builtin_expect(__atomic_load_n(&gmp_nrt, __ATOMIC_RELAXED) != 0, 0);
}

/* A realtime G is runnable on sched.rtrunq (a racy look). */
static inline bool gmp_rt_queued(void)
{
	return gmp_rt_active() && __atomic_load_n(&sched.rtrunqsize, __ATOMIC_ACQUIRE) > 0;
}

/* At the end of a call that woke Gs: a realtime one above the caller,
 * which kick() could only mark, runs now.  Nothing at all while no G is
 * realtime: a SCHED_OTHER program's G then yields where it always did. */
static inline void gmp_rt_preempt_point(void)
{
	if (gmp_rt_active())
		gmp_preempt_point();
}

/* sched.lock held.  head: before the Gs of its own priority (a preempted
 * SCHED_FIFO G keeps its place), else after them. */
void rtrunqput(struct g *gp, bool head);
struct g *rtrunqget(void);

/* Queues gp (G_RUNNABLE, rtprio > 0) on the realtime queue and finds it a
 * P: an idle one, or the one running the lowest-priority G below it, which
 * is asked to preempt it now (mp: the caller's M, NULL if it is no G;
 * the caller's own G is only marked, and yields at its next preemption
 * point).  sched.lock not held. */
void gmp_rt_ready(struct m *mp, struct g *gp);

/* What a running realtime G does when asked to yield: stay (nothing of
 * its priority or above is queued), go before the Gs of its priority (a
 * higher one is queued), or after them (SCHED_RR at the end of its slice,
 * or sched_yield, with an equal one queued). */
enum rtyield { RT_STAY, RT_HEAD, RT_TAIL };
enum rtyield gmp_rt_yieldhow(struct g *gp, bool yield);
/* sysmon: whether the G running on pp is preempted at the end of its
 * slice (SCHED_FIFO never is; SCHED_RR only for an equal one). */
bool gmp_rt_slice_preempt(struct p *pp);

/* Recomputes gp->rtprio from its policy and boosts, keeps gmp_nrt, moves
 * a queued gp to its new place, and marks the calling G for preemption
 * when it lowered itself below a queued G.  No runtime lock held. */
void gmp_rt_update(struct g *gp);
/* A new G, its policy just set (not counted yet); a G that exits. */
void gmp_rt_newg(struct g *gp);
void gmp_rt_exit(struct g *gp);
/* fork child: only self is left. */
void gmp_rt_fork_child(struct g *self);

/* PTHREAD_PRIO_INHERIT: waiter parks on a mutex owner holds. */
void gmp_rt_pi_boost(struct g *owner, struct g *waiter);
/* The caller took / released a PI mutex. */
void gmp_rt_pi_acquired(struct g *gp);
void gmp_rt_pi_released(struct g *gp);
/* PTHREAD_PRIO_PROTECT: the caller took a mutex of this ceiling; returns
 * the boost to restore when it releases it. */
int gmp_rt_pp_acquired(struct g *gp, int ceiling);
void gmp_rt_pp_released(struct g *gp, int saved);

/* sched_setscheduler/sched_setparam for the calling process: while it has
 * a single thread, its policy goes to the kernel too, on every M (and on
 * each M made later), so that the kernel orders it among other processes
 * (futex wake-ups of process-shared objects).  A second thread puts the
 * Ms back (gmp_rt_kernel_threads). */
void gmp_rt_kernel_apply(struct g *gp);
/* A new M, on its own thread. */
void gmp_rt_kernel_mstart(void);
/* A G was created: the Ms go back to the policy they had. */
void gmp_rt_kernel_threads(void);
extern bool gmp_rt_kset;

#endif
