/* Making Ms (mstart.c): OS threads made with the real pthread_create, and
 * the template thread that makes them for callers that cannot. */
#ifndef GMP_MSTART_H
#define GMP_MSTART_H

#include <stdbool.h>

#include "fork.h"
#include "runtime.h"

/* Start-up, before the first M is made. */
void gmp_mstart_init(void);
/* A g0 region with its struct m (not yet on sched.allm's threads). */
struct m *allocm(void);
/* An OS thread for a new M that starts with pp (spinning as startm says).
 * Any context: a caller that cannot create threads (a signal handler, an
 * M with a G's locks) has the template thread do it. */
void newm(struct p *pp, bool spinning);
/* Whether the kernel refused the last M a thread (RLIMIT_NPROC, pids). */
bool gmp_newm_failing(void);
/* A runtime thread that is no M (sysmon, the template thread): an NPTL
 * thread with a small stack.  False if it could not be created. */
bool gmp_start_runtime_thread(void *(*fn)(void *));
/* The same, made by the template thread, for a caller that must not call
 * into NPTL and malloc (sysmon: a malloc lock held by a G it would have to
 * rescue).  done(started) runs there afterwards.  False if another such
 * request is still pending (ask again later). */
bool gmp_start_runtime_thread_later(void *(*fn)(void *), void (*done)(bool));
void gmp_start_templatethread(void);
void newm_fork(enum gmp_fork_phase phase);
/* Before every runtime lock at a fork: waits for the template thread to
 * finish the threads it is making, and keeps it from making more until the
 * fork is over. */
void spawn_fork(enum gmp_fork_phase phase);

#endif
