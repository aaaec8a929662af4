/* Rescue (rescue.c): what sysmon learned of an M that has not scheduled. */
#ifndef GMP_RESCUE_H
#define GMP_RESCUE_H

#include "runtime.h"

enum probe {
	PROBE_UNKNOWN,  /* could not tell */
	PROBE_USER,     /* running in user mode */
	PROBE_RESCUED,  /* asleep in a restartable call: asked to let go of its P */
	PROBE_BLOCKED,  /* asleep in a call that cannot be rescued */
};
void gmp_rescue_fork(struct m *mp);
enum probe gmp_rescue_probe(struct p *pp);
/* The rescue request's handler, on the M asked to let go of its P. */
void gmp_rescue_signal(void *uc);

#endif
