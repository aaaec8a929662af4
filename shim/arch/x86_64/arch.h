/* The narrow per-architecture interface the runtime core uses.  An aarch64
 * port provides the same functions and the same switch.S entry points. */
#ifndef GMP_ARCH_X86_64_H
#define GMP_ARCH_X86_64_H

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

/* Points the thread register at a TCB: wrfsbase when the kernel allows it,
 * else arch_prctl.  Costs a few us under a hypervisor without FSGSBASE, so
 * the scheduler calls it only when the next G differs from the last one. */
void gmp_arch_setfs(void *tcb);
void gmp_arch_init(void);
void gmp_arch_signal_pc_sp(void *uc, uintptr_t *pc, uintptr_t *sp);
void gmp_arch_signal_regs(void *uc, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp);
bool gmp_arch_signal_at_syscall(void *uc, long nr);
void gmp_arch_signal_set_pc(void *uc, uintptr_t pc);
bool gmp_arch_signal_in_syscall(void *uc);

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
static inline long gmp_syscall6(long n, long a, long b, long c, long d, long e, long f)
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
#define gmp_syscall(n, a, b, c) gmp_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
