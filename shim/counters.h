/* Per-P event counters (the figures behind gmprun --stats and the public
 * gmpshim_stats call).  Each P's block is written only by the M that owns
 * the P at that moment, with plain increments: no atomics on the hot path.
 * Readers (stats.c) sum every P's block without stopping anybody; a sum is
 * a snapshot that may be a few events behind, which is all a counter
 * needs.  Events that happen where no P is held (sysmon, an M woken from
 * the poller without a P) go to gmp_ctr_nop with atomic adds. */
#ifndef GMP_COUNTERS_H
#define GMP_COUNTERS_H

#include <stdint.h>

/* Room for every enum waitreason (runtime.h), with space for new ones. */
#define GMP_NWAITREASON 16

struct gmp_pcounters {
	uint64_t gcreated;     /* Gs created (pthread_create) */
	uint64_t switches;     /* Gs started or resumed by execute */
	uint64_t steals;       /* Gs taken from another P's queue */
	uint64_t globtakes;    /* takes from the global run queue */
	uint64_t preempts;     /* Gs preempted (signal-based preemption) */
	uint64_t wakepreempts; /* preemption requests for a woken G (sysmon: gmp_ctr_nop) */
	uint64_t asyncpreempts; /* ... of preempts, by the signal in the program's code (sysmon.c) */
	uint64_t spinpreempts; /* ... of those, at a spin-wait hint (preempt.c) */
	uint64_t handoffs;     /* Ps retaken from a syscall and handed off */
	uint64_t netpollwakes; /* Gs readied by the netpoller */
	uint64_t kwaits;       /* kernel waits (gmp_kernelwait_begin), counted at their end */
	uint64_t ksleeps;      /* ... of them sleeps */
	uint64_t drainparks;   /* reads of an emptied stream parked without the call (fdio.c) */
	uint64_t pollkeeps;    /* Gs a poll readied kept for the poller's M while a P was idle (proc.c) */
	uint64_t keepwakes;    /* ... for which an M was woken once they were due */
	uint64_t park[GMP_NWAITREASON];   /* gopark, by wait reason */
	uint64_t unpark[GMP_NWAITREASON]; /* resumed after a park, by reason */
};

extern struct gmp_pcounters gmp_ctr_nop;

#define GMP_CTR_NOP_ADD(field, n) __atomic_add_fetch(&gmp_ctr_nop.field, (uint64_t)(n), __ATOMIC_RELAXED)

#endif
