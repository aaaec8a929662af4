/* Rescue (rescue.c): what sysmon learned of an M that has not scheduled. */
#ifndef GMP_RESCUE_H
#define GMP_RESCUE_H

#include "runtime.h"

enum probe {
	PROBE_UNKNOWN,  /* could not tell */
	PROBE_SEEN,     /* running, seen so once: the next look may confirm it */
	PROBE_USER,     /* running in user mode */
	PROBE_RESCUED,  /* asleep in a call outside the runtime: its P was handed off */
	PROBE_BLOCKED,  /* asleep where its P cannot be taken */
};
void gmp_rescue_fork(struct m *mp);
/* sysmon, off any P: pp is P_RUNNING and has not scheduled for a tick.
 * take: hand the P off if its M sleeps in a call outside the runtime.
 * sure: the answer PROBE_USER must come from /proc (a preemption request
 * depends on it), not from the thread's CPU clock. */
enum probe gmp_rescue_probe(struct p *pp, bool take, bool sure, int64_t now);
/* sysmon: asks Ms running user code without the P they lost to come back
 * for one, once per time slice.  Whether there are any such Ms (running
 * or still in their call). */
bool gmp_rescue_stragglers(int64_t now);

#endif
