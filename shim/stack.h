/* G memory (stack.c): guard, stack, static TLS, TCB and struct g in one
 * mapping, or in one slot of an arena shared with other Gs. */
#ifndef GMP_STACK_H
#define GMP_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/* A new G's memory: a fresh mapping, or only TLS/TCB/struct g for a user
 * stack (user_stack != NULL).  NULL if the kernel refuses.  Any context. */
struct g *malg(size_t stack_size, size_t guard_size, void *user_stack, size_t user_size);
/* RLIMIT_STACK's soft limit (2 MiB if unlimited), as NPTL's default. */
size_t gmp_default_stacksize(void);
void gmp_guard_pages(void *addr, size_t len);
/* Where gp's stack starts (its highest usable address). */
uintptr_t gmp_stack_top(struct g *gp);

/* Whether sp lies in gp's stack (not an alternate signal stack, not g0's). */
static inline bool gmp_sp_in_g(const struct g *gp, uintptr_t sp)
{
	return sp - (uintptr_t)gp->stack_lo < gp->stack_size;
}
/* Gives the stack pages of the free Gs on list (linked by schedlink) back
 * to the kernel (their TLS, TCB and struct g stay): they read as zeros
 * when touched again.  sysmon's: makes system calls. */
void gmp_stack_release_list(struct g *list);
/* Returns gp's whole mapping to the kernel. */
void gmp_unmap_g(struct g *gp);

#endif
