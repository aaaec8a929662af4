/* Backtraces with libunwind (unwind.c), printed without malloc or stdio,
 * so they can be taken in a signal handler. */
#ifndef GMP_UNWIND_H
#define GMP_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "outbuf.h"

struct ucontext_t;

/* Loads libunwind (once, at start-up: dlopen is not signal-safe). */
void gmp_unwind_init(void);
bool gmp_unwind_available(void);

/* Prints the frames of the context saved by gmp_swap at sp (a G that is
 * not running). */
void gmp_backtrace_saved(struct outbuf *ob, uintptr_t sp, const char *indent);
/* Prints the frames of a context interrupted by a signal. */
void gmp_backtrace_signal(struct outbuf *ob, void *uc, const char *indent);
void gmp_backtrace_regs(struct outbuf *ob, uintptr_t pc, uintptr_t sp, uintptr_t bp, const char *indent);
/* Prints "0xaddr in name+0xoff" for a code address: a return address, or
 * with exact, an address that is itself an instruction (a function). */
void gmp_symbolize(struct outbuf *ob, uintptr_t pc, bool exact);

#endif
