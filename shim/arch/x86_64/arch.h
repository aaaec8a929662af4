/* The per-architecture interface (x86_64): everything the rest of the
 * shim knows of registers, the thread pointer and the signal frame.  The
 * build puts shim/arch/<cpu_family>/ on the include path; a port provides
 * this header (the same names), context.c and switch.S.  docs/design.md
 * lists the interface. */
#ifndef GMP_ARCH_H
#define GMP_ARCH_H

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

/* Points the thread register at a TCB: wrfsbase when the kernel allows it,
 * else arch_prctl.  Costs a few us under a hypervisor without FSGSBASE, so
 * the scheduler calls it only when the next G differs from the last one. */
void gmp_arch_setfs(void *tcb);
void gmp_arch_init(void);
void gmp_arch_signal_pc_sp(void *uc, uintptr_t *pc, uintptr_t *sp);
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

/* libunwind's names for this architecture's local unwinder. */
#define GMP_ARCH_UNW_PREFIX "_ULx86_64_"

/* The thread control block (TLS_TCB_AT_TP: the thread pointer points at
 * glibc's tcbhead_t, the static TLS lies below).  tcbhead_t offsets are
 * part of the ABI compilers bake in (%fs:0x28 is the stack protector). */
#define GMP_ARCH_TCB_AT_TP 1
#define GMP_ARCH_TCB_OFF_TCB 0x00
#define GMP_ARCH_TCB_OFF_DTV 0x08
#define GMP_ARCH_TCB_OFF_SELF 0x10
#define GMP_ARCH_TCB_OFF_MULTIPLE_THREADS 0x18
#define GMP_ARCH_TCB_OFF_POINTER_GUARD 0x30
/* The header words a new TCB copies from the initial thread's
 * (multiple_threads .. feature_1: the canary, the guard, CET state). */
#define GMP_ARCH_TCB_COPY_FROM 0x18
#define GMP_ARCH_TCB_COPY_TO 0x50

/* Indices in a __jmp_buf (glibc's sysdeps/x86_64/jmpbuf-offsets.h) of the
 * saved stack pointer and of the address longjmp jumps to, both kept
 * mangled. */
#define GMP_ARCH_JB_SP 6
#define GMP_ARCH_JB_PC 7
/* A function a longjmp enters as if called: longjmp leaves the stack
 * pointer as after a return, one word off a call's, so the function
 * realigns its stack. */
#define GMP_ARCH_LONGJMP_TARGET __attribute__((force_align_arg_pointer))

/* glibc's PTR_MANGLE of a pointer saved by setjmp: xor with the thread's
 * pointer guard, rotate left by 17. */
static inline uintptr_t gmp_arch_ptr_mangle(uintptr_t v, uintptr_t guard)
{
	v ^= guard;
	return (v << 17) | (v >> 47);
}

static inline uintptr_t gmp_arch_ptr_demangle(uintptr_t v, uintptr_t guard)
{
	return ((v >> 17) | (v << 47)) ^ guard;
}

static inline void *gmp_arch_tp(void)
{
	void *tp;
	__asm__ volatile("mov %%fs:0x10, %0" : "=r"(tp));
	return tp;
}

static inline uintptr_t gmp_arch_sp(void)
{
	uintptr_t sp;
	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
	return sp;
}

static inline void gmp_arch_pause(void)
{
	__asm__ volatile("pause" ::: "memory");
}

/* Raw system calls: they neither read nor write errno, which lives in the
 * TLS of whatever G the FS base last pointed at.  Return -errno on error. */
static inline long gmp_arch_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#define gmp_arch_syscall(n, a, b, c) gmp_arch_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
