/* Thread lifecycle (thread.c): create, exit, join, detach. */
#ifndef GMP_THREAD_H
#define GMP_THREAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

struct gmp_threadattr {
	size_t stacksize;  /* with stackaddr: the size of the user's stack */
	size_t guardsize;
	void *stackaddr;   /* lowest address of a user stack, or NULL */
	bool detached;
	uintptr_t createpc;  /* return address of the pthread_create call */
	int inheritsched, sched_policy, sched_priority;
	bool c11;          /* thrd_create: the start routine returns int */
	bool has_affinity; /* pthread_attr_setaffinity_np; else the creator's */
	cpu_set_t affinity;
	bool has_sigmask;  /* pthread_attr_setsigmask_np; else the creator's */
	uint64_t sigmask;
};
int gmp_newthread(struct g **out, const struct gmp_threadattr *ta, void *(*start)(void *), void *arg);

/* The TIDs Gs see in their TCB: GMP_TID_BASE and up, never reused. */
int gmp_newtid(void);
/* On g0, the exited G gp is off its M: free it or keep it for a joiner. */
void gmp_exit_reap(struct m *mp, struct g *gp);
/* deadline: -1 none, else as in timer.h.  Return errno values. */
int gmp_join(const void *thread, void **retval, int64_t deadline);
int gmp_detach(const void *thread);

#endif
