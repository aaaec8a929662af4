/* The functions every architecture's port defines (context.c, switch.S,
 * syscall_cancel.S), declared once for all: each shim/arch/<cpu>/arch.h
 * includes this and adds its constants and inline helpers.  docs/design.md
 * lists the interface and what differs per architecture. */
#ifndef GMP_ARCH_API_H
#define GMP_ARCH_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Saves the running context into *save_sp and resumes the one at new_sp. */
void gmp_swap(uintptr_t *save_sp, uintptr_t new_sp);

/* Builds a context on the stack ending at stack_top that, once resumed by
 * gmp_swap, calls entry(arg) with a fresh ABI-conforming frame.  entry must
 * not return.  Returns the sp to hand to gmp_swap. */
uintptr_t gmp_arch_new_context(uintptr_t stack_top, void (*entry)(void *), void *arg);
void gmp_arch_inherit_fpenv(uintptr_t sp);
/* The first code a new context runs (switch.S): calls entry(arg). */
void gmp_context_start(void);
/* Where a context saved by gmp_swap at sp resumes (gmp_context_start for
 * one that never ran). */
uintptr_t gmp_arch_context_pc(uintptr_t sp);
/* syscall_cancel.S: a system call that a cancellation request can move to
 * its cancelled exit (kicked) while it is between begin and end. */
extern char gmp_syscall_cancel_begin[], gmp_syscall_cancel_end[], gmp_syscall_cancel_kicked[];
/* The system call nr, unless *kick is set when it is about to start
 * (then -EINTR): a cancellation point's system call. */
long gmp_syscall_cancel_arch(const uint32_t *kick, long nr, long a1, long a2, long a3, long a4, long a5,
			     long a6);
/* sigmask.S: the thread's kernel mask becomes *mask; a signal it lets in
 * interrupts the return at gmp_arch_sigmask_let_in_ret. */
void gmp_arch_sigmask_let_in(const uint64_t *mask);
extern char gmp_arch_sigmask_let_in_ret[];

/* Points the thread register at a TCB (context.c says how; where it
 * costs a system call the scheduler calls it only when the next G differs
 * from the last one). */
void gmp_arch_setfs(void *tcb);
/* Whether system call nr with arguments a points the thread register at a
 * TCB (x86_64: arch_prctl(ARCH_SET_FS)), and at which (*tcb). */
bool gmp_arch_syscall_sets_tcb(long nr, const long a[6], void **tcb);
void gmp_arch_init(void);
void gmp_arch_signal_pc_sp(void *uc, uintptr_t *pc, uintptr_t *sp);
/* Whether the code around pc (a few instructions either way, within pc's
 * page, which is mapped) holds the CPU's spin-wait hint: code interrupted
 * there is most likely waiting in a loop for another thread. */
bool gmp_arch_spin_hint_near(uintptr_t pc);
void gmp_arch_signal_regs(void *uc, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp);
bool gmp_arch_signal_at_syscall(void *uc, long nr);
void gmp_arch_signal_end_syscall(void *uc, long ret);
void gmp_arch_signal_set_pc(void *uc, uintptr_t pc);
bool gmp_arch_signal_in_syscall(void *uc);
/* Fills a ucontext_t (zeroed by the caller) with the registers a G saved
 * by gmp_swap at sp would have once gmp_swap returned: for unwinding a
 * parked G. */
void gmp_arch_context_from_swap(void *uc, uintptr_t sp);
/* Sets the pc and sp of a ucontext_t (for a symbol lookup of pc). */
void gmp_arch_context_set_pc_sp(void *uc, uintptr_t pc, uintptr_t sp);
void gmp_arch_context_set_regs(void *uc, uintptr_t pc, uintptr_t sp, uintptr_t fp);

/* The handler a moved signal frame runs: the kernel's three arguments and
 * the mover's own. */
typedef void (*gmp_arch_sigframe_fn)(int sig, void *si, void *uc, void *arg);
/* Moves the signal frame the kernel built for the running handler (si and
 * uc point into it) to just below top, laid out as the kernel would have
 * laid it out there, and runs fn(sig, si, uc, arg) on it in the handler's
 * place: fn's return goes through the frame's restorer to rt_sigreturn,
 * which reads the frame where it now is.  ret: the handler's return
 * address (where the restorer is, on architectures that pass it in a
 * register).  The handler's own frames are abandoned. */
__attribute__((noreturn)) void gmp_arch_sigframe_move(int sig, void *si, void *uc, uintptr_t top, void *ret,
						      gmp_arch_sigframe_fn fn, void *arg);

#endif
