/* The set of live pthread_t values (registry.c). */
#ifndef GMP_REGISTRY_H
#define GMP_REGISTRY_H

#include "fork.h"
#include "runtime.h"

/* Each takes the registry lock (proc.c: it nests inside every other lock)
 * except the _locked and _unlocked ones. */
void gmp_registry_add(struct g *gp);
void gmp_registry_del(struct g *gp);
struct g *gmp_registry_get(const void *tcb);
struct g *gmp_registry_live(const void *tcb);
/* The live G whose TID (gettid()'s answer, glibc's TCB field) is tid. */
struct g *gmp_registry_tid(int tid);
void gmp_registry_lock(void);
void gmp_registry_unlock(void);
struct g *gmp_registry_find_locked(const void *tcb);
void gmp_registry_foreach(void (*fn)(struct g *, void *), void *arg);

/* registry.c: for a dump from a signal handler, which cannot take the
 * registry lock (the interrupted thread may hold it). */
void gmp_registry_foreach_unlocked(void (*fn)(struct g *, void *), void *arg);
/* fn(tcb, arg) for every live G. */
void gmp_registry_foreach_tcb(void (*fn)(void *tcb, void *arg), void *arg);
void registry_fork(enum gmp_fork_phase phase);

#endif
