/* Dumps (gdump.c): every thread's state and stack, and the stop-the-world
 * that holds the Ms still for it.  Which signals take one: dumpsig.h. */
#ifndef GMP_GDUMP_H
#define GMP_GDUMP_H

#include <signal.h>
#include <stdbool.h>

#include "fork.h"

/* The fault signals a dump is taken for when the shim itself faults. */
static inline bool gmp_dump_fatal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGABRT;
}

/* The dump, in a signal handler (dumpsig.c's): stops the other Ms, prints
 * every thread, and lets the Ms go on unless terminal.  A second dump
 * while one runs does nothing. */
void gmp_dump(int sig, siginfo_t *si, void *uc, bool terminal);
/* A fault on the thread that is unwinding a G for the dump goes back to
 * the dump (which goes on with the next G); else it returns. */
void gmp_dump_fault(int sig, siginfo_t *si);
bool gmp_dump_busy(void);
/* This very thread is dumping (a handler nested in the dump's). */
bool gmp_dumping_here(void);
/* Another thread is dumping: wait like a stopped M, and say so. */
bool gmp_dump_wait_other(void *uc);
/* An M asked to stop for a dump (SIGREQ_DUMPSTOP, from the runtime's
 * signal handler): publishes uc and waits until the dump is over. */
void gmp_dump_serve_stop(void *uc);
void gmp_dump_init(void);
void gmp_dump_fork(enum gmp_fork_phase phase);

#endif
