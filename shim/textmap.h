/* Which code a signal interrupted (textmap.c). */
#ifndef GMP_TEXTMAP_H
#define GMP_TEXTMAP_H

#include <stdbool.h>
#include <stdint.h>

/* Learns the code ranges of the loaded objects; again after a dlopen. */
void gmp_textmap_refresh(void);
/* pc lies in the shim's own code. */
bool gmp_pc_in_shim(uintptr_t pc);
/* pc lies in the program's own code or a library of its own, outside
 * the shim, libc, ld.so, libgcc_s and the vDSO: a G can be stopped there. */
bool gmp_pc_async_safe(uintptr_t pc);
/* Some word of the stack at [sp, hi) is an address in the shim's code: the
 * code at sp was likely called by the shim (a return address), or a stale
 * word says so, which only errs on the side of the runtime. */
bool gmp_stack_from_shim(uintptr_t sp, uintptr_t hi);

#endif
