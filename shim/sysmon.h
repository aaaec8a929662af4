/* sysmon (sysmon.c): retakes Ps from long syscalls, preempts long-running Gs,
 * polls the network when nobody else does. */
#ifndef GMP_SYSMON_H
#define GMP_SYSMON_H

#include "fork.h"

void gmp_sysmon_start(void);
void gmp_sysmon_wake(void);
void sysmon_fork(enum gmp_fork_phase phase);

#endif
