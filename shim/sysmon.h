/* sysmon (sysmon.c): retakes Ps from long syscalls, preempts long-running Gs,
 * polls the network when nobody else does. */
#ifndef GMP_SYSMON_H
#define GMP_SYSMON_H

#include "fork.h"

/* Once, from gmp_init. */
void gmp_sysmon_start(void);
/* Any context: sysmon sleeps while every P is idle; a P became busy. */
void gmp_sysmon_wake(void);
/* A G woke while no P was idle (gmp_markwoke): wakes sysmon if it sleeps
 * past a wake slice while some G runs long. */
void gmp_sysmon_hurry(void);
void sysmon_fork(enum gmp_fork_phase phase);

#endif
