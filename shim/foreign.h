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
