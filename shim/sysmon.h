/* sysmon (sysmon.c): retakes Ps from long syscalls, preempts long-running Gs,
 * polls the network when nobody else does. */
#ifndef GMP_SYSMON_H
#define GMP_SYSMON_H

#include "fork.h"

/* Once, from gmp_init. */
void gmp_sysmon_start(void);
/* Any context: sysmon sleeps while every P is idle; a P became busy. */
void gmp_sysmon_wake(void);
/* A G waits behind busy Ps: wakes sysmon if it planned to sleep past what
 * that G may wait, a wake slice for one readied from a wait (gmp_markwoke,
 * HURRY_WOKEN), a slice for one preempted, yielding or new (HURRY_QUEUED).
 * HURRY_WATCH: the first G parked on the network (sysmon polls when nobody
 * else does), or a timer left to sysmon's watch, ends a sleep longer than
 * Go's sysmon's 10 ms, which sysmon takes when nothing needs watching. */
enum sysmon_hurry { HURRY_WOKEN = 1, HURRY_QUEUED = 2, HURRY_WATCH = 3 };
void gmp_sysmon_hurry(enum sysmon_hurry need);
void sysmon_fork(enum gmp_fork_phase phase);

#endif
