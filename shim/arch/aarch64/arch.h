/* The per-architecture interface (aarch64): everything the rest of the
 * shim knows of registers, the thread pointer and the signal frame.  The
 * same names as shim/arch/x86_64/arch.h; docs/design.md lists the
 * interface and what differs.  The thread pointer is TPIDR_EL0, which
 * gmp_arch_setfs writes directly: an EL0 write, no system call, so every
 * switch between Gs is cheap. */
#ifndef GMP_ARCH_H
#define GMP_ARCH_H

#include "../archapi.h"

/* No red zone below the stack pointer; the kernel's MINSIGSTKSZ. */
#define GMP_ARCH_REDZONE 0
#define GMP_ARCH_MINSIGSTKSZ 5120

/* switch.S: sp becomes the stack pointer, the frame pointer fp and the
 * link register lr, then fn(sig, si, uc, arg) runs (gmp_arch_sigframe_move). */
__attribute__((noreturn)) void gmp_arch_sigframe_jump(uintptr_t sp, int sig, void *si, void *uc,
						      gmp_arch_sigframe_fn fn, void *arg, void *lr, void *fp);

/* libunwind's names for this architecture's local unwinder. */
#define GMP_ARCH_UNW_PREFIX "_ULaarch64_"

/* TLS variant I (TLS_DTV_AT_TP): the thread pointer points at a 16-byte
 * tcbhead_t { dtv, private } with the static TLS blocks above it, and
 * glibc's struct pthread -- the pthread_t, which the runtime calls the
 * TCB -- lies just below it.  Its size is glibc's private business, so
 * compat/tls.c learns it at start-up (gmp_arch_set_pthread_size) from the
 * libthread_db descriptor; until then the thread pointer is taken as is. */
#define GMP_ARCH_TCB_AT_TP 0
/* From the thread pointer: the DTV pointer of tcbhead_t. */
#define GMP_ARCH_TP_OFF_DTV 0x00
/* From the pthread_t: struct pthread's header { multiple_threads,
 * gscope_flag }, where x86_64 has tcbhead_t.  The stack canary and the
 * pointer guard are not per thread here (ld.so's __stack_chk_guard and
 * __pointer_chk_guard), so a new TCB copies no header words. */
#define GMP_ARCH_TCB_OFF_MULTIPLE_THREADS 0x00
#define GMP_ARCH_TCB_COPY_FROM 0x00
#define GMP_ARCH_TCB_COPY_TO 0x00

extern uintptr_t gmp_arch_pthread_size;
void gmp_arch_set_pthread_size(size_t size);

/* Indices in a __jmp_buf (glibc's sysdeps/aarch64/jmpbuf-offsets.h) of the
 * saved stack pointer and of the address longjmp returns to, both kept
 * mangled. */
#define GMP_ARCH_JB_SP 13
#define GMP_ARCH_JB_PC 11
/* A function a longjmp enters as if called: sp is 16-aligned at all times
 * here, nothing to realign. */
#define GMP_ARCH_LONGJMP_TARGET

/* glibc's PTR_MANGLE on aarch64: a plain xor with the process's pointer
 * guard. */
static inline uintptr_t gmp_arch_ptr_mangle(uintptr_t v, uintptr_t guard)
{
	return v ^ guard;
}

static inline uintptr_t gmp_arch_ptr_demangle(uintptr_t v, uintptr_t guard)
{
	return v ^ guard;
}

/* The running thread's pthread_t. */
static inline void *gmp_arch_tp(void)
{
	uintptr_t tp;
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
	return (void *)(tp - gmp_arch_pthread_size);
}

static inline uintptr_t gmp_arch_sp(void)
{
	uintptr_t sp;
	__asm__ volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

static inline void gmp_arch_pause(void)
{
	__asm__ volatile("yield" ::: "memory");
}

/* Raw system calls: they neither read nor write errno, which lives in the
 * TLS of whatever G the thread pointer last pointed at.  Return -errno on
 * error. */
static inline long gmp_arch_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory");
	return x0;
}
#define gmp_arch_syscall(n, a, b, c) gmp_arch_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
