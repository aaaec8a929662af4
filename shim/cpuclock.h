/* CPU-time clocks per G (cpuclock.c). */
#ifndef GMP_CPUCLOCK_H
#define GMP_CPUCLOCK_H

#include <stdbool.h>
#include <sys/time.h>
#include <time.h>

#include "fork.h"
#include "runtime.h"
#include "timer.h"

extern int gmp_cpuclock_on;
/* execute, on mp's g0: a G switches in on mp, and switched out again. */
void gmp_cpuclock_in(struct m *mp);
void gmp_cpuclock_out(struct m *mp, struct g *gp);
void gmp_cpuclock_slept(struct m *mp, int64_t min_ns);
/* Start-up, on m0 running the main thread gp: accounting begins, unless
 * GMPDEBUG=cpuclock=0 leaves it to the program's first clock read. */
void gmp_cpuclock_start(struct m *mp, struct g *gp);
void cpuclock_fork(enum gmp_fork_phase phase);

/* A blocking call that lasts this long is taken for a sleep: its kernel
 * CPU time, a few microseconds of entry and wake-up, goes to the epoch. */
#define GMP_CPUCLOCK_LONGCALL_NS 20000

/* On mp: it may sleep in the kernel now (idle, or its G in a blocking
 * call); and it woke.  A sleep of min_ns or more is left out of its CPU
 * accounting epoch.  Nothing while no clock was ever read. */
static inline void gmp_cpuclock_sleep(struct m *mp)
{
	mp->cpuout = 0;
	if (__builtin_expect(mp->cpustart != 0, 0))
		mp->pausedsince = gmp_nanotime();
}

static inline void gmp_cpuclock_wake(struct m *mp, int64_t min_ns)
{
	if (__builtin_expect(mp->pausedsince != 0, 0))
		gmp_cpuclock_slept(mp, min_ns);
}
void gmp_cpuclock_exit(struct g *gp);
/* The kernel's CPU time of OS thread tid of this process (0: the calling
 * one), in ns: a system call. */
int64_t gmp_thread_cputime(int tid);
int gmp_cpuclock_id(struct g *gp, clockid_t *clk);
bool gmp_cpuclock_ours(clockid_t clk);
int gmp_cpuclock_read(clockid_t clk, struct timespec *ts);
/* getrusage(RUSAGE_THREAD) of the running G: its M's user and system
 * times, as the kernel gave them, become the G's CPU time split in the
 * M's proportion. */
void gmp_cpuclock_rusage(struct timeval *utime, struct timeval *stime);

#endif
