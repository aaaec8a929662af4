/* G memory (stack.c): guard, stack, static TLS, TCB and struct g in one mapping. */
#ifndef GMP_STACK_H
#define GMP_STACK_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

struct g *malg(size_t stack_size, size_t guard_size, void *user_stack, size_t user_size);
size_t gmp_default_stacksize(void);
void gmp_guard_pages(void *addr, size_t len);
uintptr_t gmp_stack_top(struct g *gp);
/* Returns gp's whole mapping to the kernel. */
void gmp_unmap_g(struct g *gp);

#endif
