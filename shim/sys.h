/* What interpose/ needs of the machine without naming it: raw system
 * calls, the calling thread's TCB, a spin-wait hint.  Everything else of
 * shim/arch stays behind the runtime's own functions. */
#ifndef GMP_SYS_H
#define GMP_SYS_H

#include <sys/syscall.h>

#include "arch.h"

/* Raw system calls (arch.h): no errno, -errno on failure. */
#define gmp_syscall6 gmp_arch_syscall6
#define gmp_syscall gmp_arch_syscall

/* The calling thread's TCB: its pthread_t. */
static inline void *gmp_self_tcb(void)
{
	return gmp_arch_tp();
}

/* Inside a busy-wait loop. */
static inline void gmp_spin_pause(void)
{
	gmp_arch_pause();
}

/* Round i of a wait for another thread's few instructions: a pause, and
 * every 64th round the CPU given up, in case that thread is off it. */
static inline void gmp_spin_wait(unsigned i)
{
	if (i % 64 == 0)
		gmp_syscall(SYS_sched_yield, 0, 0, 0);
	else
		gmp_spin_pause();
}

#endif
