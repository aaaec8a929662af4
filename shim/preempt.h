/* Preemption (preempt.c; proc.go's preemptone and doSigPreempt). */
#ifndef GMP_PREEMPT_H
#define GMP_PREEMPT_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime.h"

extern int64_t gmp_timeslice_ns;  /* GMP_TIMESLICE; 0: no preemption */
/* The slice left to running Gs while a woken G waits for a P (sysmon.c):
 * a quarter of the time slice, not under 100 us (or the slice). */
extern int64_t gmp_wakeslice_ns;
extern bool gmp_asyncpreemptoff;  /* GMPDEBUG=asyncpreemptoff=1 */

/* sysmon: the G on pp has run past its slice. */
void preemptone(struct p *pp);
/* The M's side of a preemption request, in the runtime's signal handler. */
void gmp_preempt_signal(void *uc);
/* On a G marked for preemption, holding no runtime lock: yield. */
void gmp_preempt_yield(void);

/* On a G at a preemption point with signals pending: raise those it takes. */
void gmp_preempt_signals(void);

/* A cooperative preemption point: an entry into the shim where the G holds
 * no runtime lock.  Yields if sysmon asked it to, and takes the signals
 * that waited for the runtime's code to end (gsignal.h): a G that loops
 * on calls that end without parking (1 ns sleeps, yields with nothing
 * else to run) spends nearly all its time in that code, where natively
 * each call's return to user mode is where the kernel delivers them.
 * Counted: a G that never gets here between two preemptions only computes
 * (sysmon.c, g_slice). */
static inline void gmp_preempt_point(void)
{
	struct g *gp = getg();
	if (gp == NULL)
		return;
	__atomic_store_n(&gp->calls, gp->calls + 1, __ATOMIC_RELAXED);
	if (__builtin_expect(__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED), 0))
		gmp_preempt_yield();
	if (__builtin_expect(__atomic_load_n(&gp->sigpending, __ATOMIC_RELAXED) != 0, 0))
		gmp_preempt_signals();
}

/* Around ld.so's loader calls (dlopen, dlmopen, dlclose): they hold
 * ld.so's lock while they run code of the program's (constructors,
 * destructors), which the pc test takes for async-safe.  A G
 * switched out there would leave every other G that reaches the loader
 * (dlsym, a lazy TLS access, an unwinder) asleep in a futex the shim never
 * sees, each holding its M and P until sysmon rescues them.  A request
 * meanwhile waits for the next preemption point or request (the runtime
 * calls these too, with its locks held: no yield here), for two time
 * slices at most: past that the G is preempted as anywhere else, since a
 * constructor may loop, or wait for a thread of its own, and NPTL would
 * let the others run.  (Not dl_iterate_phdr: a program may spend most of
 * its time in its callbacks, and a deferral that restarts with each call
 * would never end.) */
static inline void gmp_preemptoff_enter(void)
{
	struct g *gp = getg();
	if (gp != NULL)
		gp->preemptoff++;
}

static inline void gmp_preemptoff_leave(void)
{
	struct g *gp = getg();
	if (gp != NULL && --gp->preemptoff == 0)
		gp->preemptoffsince = 0;
}

#endif
