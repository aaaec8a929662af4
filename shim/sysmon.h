/* sysmon (sysmon.c): retakes Ps from long syscalls, preempts long-running Gs,
 * polls the network when nobody else does. */
#ifndef GMP_SYSMON_H
#define GMP_SYSMON_H

#include "fork.h"

/* Once, from gmp_init. */
void gmp_sysmon_start(void);
/* Any context: sysmon sleeps while every P is idle; a P became busy. */
void gmp_sysmon_wake(void);
/* On a G: a G woke while no P was idle; sysmon should look within a wake
 * slice rather than after its backed-off sleep. */
void gmp_sysmon_hurry(void);
void sysmon_fork(enum gmp_fork_phase phase);

#endif
