/* Robust mutexes (robust.c): glibc's futex-word protocol, with the kernel
 * told about every robust mutex the process's Gs hold. */
#ifndef GMP_ROBUST_H
#define GMP_ROBUST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime.h"

/* gmp_robust_lock's deadline for a trylock. */
#define GMP_ROBUST_TRY (-2)

/* type: PTHREAD_MUTEX_NORMAL/RECURSIVE/ERRORCHECK.  deadline: monotonic
 * ns, -1 for none, GMP_ROBUST_TRY.  Returns 0, EOWNERDEAD, ENOTRECOVERABLE,
 * EDEADLK, EAGAIN (recursion), EBUSY (try) or ETIMEDOUT. */
int gmp_robust_lock(pthread_mutex_t *m, int type, int64_t deadline);
/* 0, EPERM (not the owner) or ENOTRECOVERABLE (recursive, still held). */
int gmp_robust_unlock(pthread_mutex_t *m, int type);
/* Whether the running G holds m. */
bool gmp_robust_held(pthread_mutex_t *m);
/* pthread_cond_wait/clockwait (glibc's, passed as wait) on a process-
 * shared condvar with the robust mutex m, which the running G holds. */
int gmp_robust_cond_wait(pthread_mutex_t *m, int (*wait)(void *, pthread_mutex_t *, clockid_t, const void *),
			 void *c, clockid_t clk, const void *abstime);
/* At G exit: marks the robust mutexes gp still holds as owner-died. */
void gmp_robust_exit(struct g *gp);
/* On the template thread: registers the process's robust list. */
void gmp_robust_register(void);
void robust_fork(enum gmp_fork_phase phase);

#endif
