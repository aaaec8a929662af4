/* Signal stacks (gsigstack.c): each M's own (Go's gsignal), where the
 * kernel puts every frame of the runtime's handlers, and each G's
 * alternate stack, which only the runtime knows of. */
#ifndef GMP_GSIGSTACK_H
#define GMP_GSIGSTACK_H

#include <signal.h>

#include "runtime.h"

void gmp_gsignal_alloc(struct m *mp);
void gmp_gsignal_install(struct m *mp);
/* The first call of a handler on the runtime's actions: a frame the
 * kernel put on the M's own stack for a G moves to where the kernel would
 * have put it for that thread, its alternate stack if onstack and it has
 * one, else below its stack pointer, and body runs there; this call does
 * not return then.  It returns (and the caller runs body itself) for a
 * frame that stays: one for the M itself (on g0 or its own signal stack)
 * or one the kernel put elsewhere. */
void gmp_sigstack_enter(int sig, siginfo_t *si, void *uc, bool onstack, void (*body)(int, siginfo_t *, void *),
			void *ret);
/* sigaltstack for the running G (the kernel's checks and answers). */
int gmp_sigaltstack(struct g *gp, const stack_t *ss, stack_t *old);

#endif
