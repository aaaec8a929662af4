/* The per-architecture interface (x86_64): everything the rest of the
 * shim knows of registers, the thread pointer and the signal frame.  The
 * build puts shim/arch/<cpu_family>/ on the include path; a port provides
 * this header (the same names: constants and inline helpers, with the
 * functions of ../archapi.h), context.c, switch.S and syscall_cancel.S.
 * The thread pointer is the FS base: gmp_arch_setfs uses wrfsbase when the
 * kernel allows it, else arch_prctl, a few us under a hypervisor without
 * FSGSBASE. */
#ifndef GMP_ARCH_H
#define GMP_ARCH_H

#include "../archapi.h"

/* The bytes below the stack pointer a signal frame leaves alone (the
 * ABI's red zone), and the smallest alternate signal stack the kernel
 * takes (its MINSIGSTKSZ). */
#define GMP_ARCH_REDZONE 128
#define GMP_ARCH_MINSIGSTKSZ 2048

/* switch.S: sp becomes the stack pointer, then fn(sig, si, uc, arg) is
 * entered as if called from the word at sp (gmp_arch_sigframe_move). */
__attribute__((noreturn)) void gmp_arch_sigframe_jump(uintptr_t sp, int sig, void *si, void *uc,
						      gmp_arch_sigframe_fn fn, void *arg);

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
