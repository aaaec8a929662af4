/* foreign.c: threads that are no G (made by a library through
 * dlsym(RTLD_NEXT, "pthread_create"), glibc's helper threads, an idle M
 * running a signal handler) get a proxy G of their own, flagged G_FOREIGN,
 * in no registry, with no M, no P and no stack of ours.  It parks by
 * blocking its own thread on fnote (sema.c); readying it wakes the note. */
#ifndef GMP_FOREIGN_H
#define GMP_FOREIGN_H

#include <stdbool.h>

#include "runtime.h"

struct g *gmp_foreign_g(bool create);
void gmp_foreign_ready(struct g *gp);
/* Looks up what freeing a foreign G at its thread's exit takes (at start,
 * while dlsym may still malloc safely). */
void gmp_foreign_init(void);
/* glibc's clone() with CLONE_VM and no CLONE_SETTLS, from a G: the child
 * task would run with the G's thread pointer and enter the runtime as that
 * G from another task (stress-ng's vm-rw stressor: "bad G status
 * transition").  gmp_foreign_clone wraps fn so that the child first takes
 * a TCB of its own, with static TLS and no G: to the runtime it is a
 * foreign thread (its own errno, as a thread's; natively it shares the
 * caller's).  Without CLONE_FILES its file descriptors are its own, not
 * those the runtime keeps state for: its fd calls leave that state alone
 * (gmp_fd_alien).  The TCB is never freed: nothing tells when the child
 * is gone.  NULL without memory. */
struct gmp_clone_start;
struct gmp_clone_start *gmp_foreign_clone(int (*fn)(void *), void *arg, int flags);
int gmp_foreign_clone_entry(void *start);
/* The calling task has an fd table of its own (such a child): the
 * netpoller's per-fd state is not about its fds. */
extern __thread bool gmp_fd_alien;
/* ... and, without CLONE_THREAD, is another process: the signals sent to
 * it are its own, not to be handed to the program's threads. */
extern __thread bool gmp_other_process;

/* tcb (a pthread_t no G has) is an NPTL thread's, as far as can be told. */
bool gmp_foreign_tcb(const void *tcb);
/* The owner id the caller stores in a lock: the G's TID, or a foreign
 * thread's kernel TID (out of line: locks take the G's on every call). */
int gmp_foreign_tid(void);
static inline int gmp_self_tid(void)
{
	struct g *gp = getg();
	return gp ? gp->tid : gmp_foreign_tid();
}

/* The calling thread's G: its own, or its foreign G (NULL only when that
 * could not be mapped). */
static inline struct g *gmp_thisg(void)
{
	struct g *gp = getg();
	return gp ? gp : gmp_foreign_g(true);
}

#endif
