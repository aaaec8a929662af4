#include <asm/prctl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <ucontext.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include "arch.h"

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE (1 << 1)
#endif

/* Default control words for a new context: all SSE exceptions masked,
 * round to nearest (0x1f80); x87 extended precision, all masked (0x037f). */
#define NEW_MXCSR 0x1f80ull
#define NEW_FPUCW 0x037full

uintptr_t gmp_arch_new_context(uintptr_t stack_top, void (*entry)(void *), void *arg)
{
	uintptr_t *sp = (uintptr_t *)(stack_top & ~(uintptr_t)15);
	*--sp = 0;                          /* keeps gmp_context_start 16-aligned */
	*--sp = 0;
	*--sp = (uintptr_t)gmp_context_start; /* return address */
	*--sp = 0;                          /* rbp */
	*--sp = 0;                          /* rbx */
	*--sp = (uintptr_t)arg;             /* r12 */
	*--sp = (uintptr_t)entry;           /* r13 */
	*--sp = 0;                          /* r14 */
	*--sp = 0;                          /* r15 */
	*--sp = NEW_MXCSR | (NEW_FPUCW << 32);
	return (uintptr_t)sp;
}

uintptr_t gmp_arch_context_pc(uintptr_t sp)
{
	return ((const uintptr_t *)sp)[7];
}

/* A thread inherits its creator's floating-point environment (POSIX
 * pthread_create): the new context's saved control words become the
 * caller's own, as the kernel's copy of the FPU state does for clone. */
void gmp_arch_inherit_fpenv(uintptr_t sp)
{
	uint32_t mxcsr;
	uint16_t cw;
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	__asm__ volatile("fnstcw %0" : "=m"(cw));
	*(uintptr_t *)sp = mxcsr | ((uintptr_t)cw << 32);
}

static int have_wrfsbase;

void gmp_arch_init(void)
{
	have_wrfsbase = (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) != 0;
}

void gmp_arch_setfs(void *tcb)
{
	if (have_wrfsbase) {
		__asm__ volatile("wrfsbase %0" ::"r"(tcb) : "memory");
		return;
	}
	/* Fails only for an address outside user space: a broken runtime. */
	if (gmp_arch_syscall6(SYS_arch_prctl, ARCH_SET_FS, (long)tcb, 0, 0, 0, 0) != 0)
		__builtin_trap();
}

bool gmp_arch_syscall_sets_tcb(long nr, const long a[6], void **tcb)
{
	if (nr != SYS_arch_prctl || a[0] != ARCH_SET_FS)
		return false;
	*tcb = (void *)a[1];
	return true;
}

/* Where a signal interrupted the thread. */
void gmp_arch_signal_pc_sp(void *ucv, uintptr_t *pc, uintptr_t *sp)
{
	ucontext_t *uc = ucv;
	*pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	*sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
}

/* PAUSE (F3 90) within 16 bytes: a spin loop around it is a handful of
 * instructions (pause; load; compare; branch back). */
bool gmp_arch_spin_hint_near(uintptr_t pc)
{
	uintptr_t page = pc & ~(uintptr_t)4095, lo = pc - 16 < page || pc < 16 ? page : pc - 16;
	uintptr_t hi = pc + 16 > page + 4095 ? page + 4095 : pc + 16;
	for (const unsigned char *b = (const unsigned char *)lo; (uintptr_t)b < hi; b++)
		if (b[0] == 0xf3 && b[1] == 0x90)
			return true;
	return false;
}

/* ... and its frame pointer, enough to unwind from there later. */
void gmp_arch_signal_regs(void *ucv, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp)
{
	ucontext_t *uc = ucv;
	*pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	*sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	*fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
}

/* Whether the interrupted context sits on a syscall instruction about to
 * (re)issue system call nr: where the kernel leaves a blocking call that
 * it restarts after a SA_RESTART handler. */
bool gmp_arch_signal_at_syscall(void *ucv, long nr)
{
	ucontext_t *uc = ucv;
	const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	return ip[0] == 0x0f && ip[1] == 0x05 && uc->uc_mcontext.gregs[REG_RAX] == nr;
}

/* Makes a system call the kernel set to restart (the context on its
 * syscall instruction, gmp_arch_signal_at_syscall) return ret instead:
 * what it would have returned had the kernel not restarted it. */
void gmp_arch_signal_end_syscall(void *ucv, long ret)
{
	ucontext_t *uc = ucv;
	uc->uc_mcontext.gregs[REG_RIP] += 2;
	uc->uc_mcontext.gregs[REG_RAX] = (greg_t)ret;
}

/* Where a handler's return resumes the interrupted context. */
void gmp_arch_signal_set_pc(void *ucv, uintptr_t pc)
{
	ucontext_t *uc = ucv;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
}

/* Whether the interrupted context is at a system call: on a syscall
 * instruction (about to enter it, or to restart it after the handler), or
 * just past one that the handler ended with EINTR. */
bool gmp_arch_signal_in_syscall(void *ucv)
{
	ucontext_t *uc = ucv;
	const unsigned char *ip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	if (ip[0] == 0x0f && ip[1] == 0x05)
		return true;
	return uc->uc_mcontext.gregs[REG_RAX] == -4 && ip[-2] == 0x0f && ip[-1] == 0x05;
}

/* The frame gmp_swap leaves (switch.S): mxcsr/x87 cw, r15, r14, r13,
 * r12, rbx, rbp, return address. */
void gmp_arch_context_from_swap(void *ucv, uintptr_t sp)
{
	const uintptr_t *f = (const uintptr_t *)sp;
	greg_t *r = ((ucontext_t *)ucv)->uc_mcontext.gregs;
	r[REG_R15] = (greg_t)f[1];
	r[REG_R14] = (greg_t)f[2];
	r[REG_R13] = (greg_t)f[3];
	r[REG_R12] = (greg_t)f[4];
	r[REG_RBX] = (greg_t)f[5];
	r[REG_RBP] = (greg_t)f[6];
	r[REG_RIP] = (greg_t)f[7];
	r[REG_RSP] = (greg_t)(sp + 64);
}

void gmp_arch_context_set_pc_sp(void *ucv, uintptr_t pc, uintptr_t sp)
{
	greg_t *r = ((ucontext_t *)ucv)->uc_mcontext.gregs;
	r[REG_RIP] = (greg_t)pc;
	r[REG_RSP] = (greg_t)sp;
}

/* ... and its frame pointer (0: unknown), to unwind from there. */
void gmp_arch_context_set_regs(void *ucv, uintptr_t pc, uintptr_t sp, uintptr_t fp)
{
	gmp_arch_context_set_pc_sp(ucv, pc, sp);
	((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RBP] = (greg_t)fp;
}

/* The kernel's rt_sigframe: the return address (the restorer), its struct
 * ucontext (304 bytes: glibc's ucontext_t is longer), the siginfo; above
 * them, 64-byte aligned, the FPU state uc_mcontext.fpregs points at, whose
 * size the XSAVE software bytes tell (offset 464: FP_XSTATE_MAGIC1, then
 * the extended size, which counts the trailing magic). */
#define XSTATE_MAGIC1 0x46505853u
#define FXSAVE_SIZE 512

void gmp_arch_sigframe_move(int sig, void *si, void *ucv, uintptr_t top, void *ret, gmp_arch_sigframe_fn fn,
			    void *arg)
{
	(void)ret; /* the frame's first word */
	ucontext_t *uc = ucv;
	char *start = (char *)uc - 8, *end = (char *)si + sizeof(siginfo_t);
	char *fp = (char *)uc->uc_mcontext.fpregs;
	uintptr_t to;
	if (fp != NULL && fp >= end) {
		uint32_t magic, size = FXSAVE_SIZE;
		memcpy(&magic, fp + 464, sizeof magic);
		if (magic == XSTATE_MAGIC1)
			memcpy(&size, fp + 468, sizeof size);
		end = fp + size;
		to = ((top - size) & ~(uintptr_t)63) - (uintptr_t)(fp - start);
	} else {
		fp = NULL;
		to = ((top - (uintptr_t)(end - start)) & ~(uintptr_t)15) - 8;
	}
	intptr_t delta = (intptr_t)(to - (uintptr_t)start);
	memcpy((void *)to, start, (size_t)(end - start));
	ucontext_t *nuc = (ucontext_t *)((char *)uc + delta);
	if (fp != NULL)
		nuc->uc_mcontext.fpregs = (fpregset_t)(fp + delta);
	gmp_arch_sigframe_jump(to, sig, (char *)si + delta, nuc, fn, arg);
}
