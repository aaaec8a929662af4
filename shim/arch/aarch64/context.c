#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <ucontext.h>

#include "arch.h"

/* Saved frame of gmp_swap (switch.S), in 8-byte words. */
#define F_X19 0
#define F_X29 10
#define F_X30 11
#define F_FPCR 20
#define F_WORDS 22

/* The instruction "svc #0". */
#define SVC0 0xd4000001u

uintptr_t gmp_arch_pthread_size;

void gmp_arch_set_pthread_size(size_t size)
{
	gmp_arch_pthread_size = size;
}

uintptr_t gmp_arch_new_context(uintptr_t stack_top, void (*entry)(void *), void *arg)
{
	uintptr_t *sp = (uintptr_t *)(stack_top & ~(uintptr_t)15) - F_WORDS;
	for (int i = 0; i < F_WORDS; i++)
		sp[i] = 0;
	sp[F_X19] = (uintptr_t)arg;
	sp[F_X19 + 1] = (uintptr_t)entry;
	sp[F_X30] = (uintptr_t)gmp_context_start;
	/* FPCR 0: round to nearest, no traps, no flush-to-zero (the reset
	 * value the kernel gives a new process). */
	sp[F_FPCR] = 0;
	return (uintptr_t)sp;
}

/* A thread inherits its creator's floating-point environment (POSIX
 * pthread_create): the new context's saved FPCR becomes the caller's, as
 * the kernel's copy of the FP state does for clone. */
void gmp_arch_inherit_fpenv(uintptr_t sp)
{
	uintptr_t fpcr;
	__asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
	((uintptr_t *)sp)[F_FPCR] = fpcr;
}

uintptr_t gmp_arch_context_pc(uintptr_t sp)
{
	return ((const uintptr_t *)sp)[F_X30];
}

void gmp_arch_init(void)
{
}

void gmp_arch_setfs(void *tcb)
{
	__asm__ volatile("msr tpidr_el0, %0" ::"r"((uintptr_t)tcb + gmp_arch_pthread_size) : "memory");
}

/* TPIDR_EL0 is written with msr, never by a system call. */
bool gmp_arch_syscall_sets_tcb(long nr, const long a[6], void **tcb)
{
	(void)nr;
	(void)a;
	(void)tcb;
	return false;
}

/* Where a signal interrupted the thread. */
void gmp_arch_signal_pc_sp(void *ucv, uintptr_t *pc, uintptr_t *sp)
{
	ucontext_t *uc = ucv;
	*pc = (uintptr_t)uc->uc_mcontext.pc;
	*sp = (uintptr_t)uc->uc_mcontext.sp;
}

/* YIELD, or ISB or WFE (the spin hints of Rust's, Java's and the kernel's
 * spin loops here) within 4 instructions. */
bool gmp_arch_spin_hint_near(uintptr_t pc)
{
	uintptr_t page = pc & ~(uintptr_t)4095, lo = pc - 16 < page || pc < 16 ? page : pc - 16;
	uintptr_t hi = pc + 16 > page + 4092 ? page + 4092 : pc + 16;
	for (const uint32_t *i = (const uint32_t *)(lo & ~(uintptr_t)3); (uintptr_t)i <= hi; i++)
		if (*i == 0xd503203f || *i == 0xd5033fdf || *i == 0xd503205f)
			return true;
	return false;
}

/* ... and its frame pointer, enough to unwind from there later. */
void gmp_arch_signal_regs(void *ucv, uintptr_t *pc, uintptr_t *sp, uintptr_t *fp)
{
	ucontext_t *uc = ucv;
	*pc = (uintptr_t)uc->uc_mcontext.pc;
	*sp = (uintptr_t)uc->uc_mcontext.sp;
	*fp = (uintptr_t)uc->uc_mcontext.regs[29];
}

/* Whether the interrupted context sits on an svc about to (re)issue system
 * call nr: where the kernel leaves a blocking call that it restarts after
 * a SA_RESTART handler, with x0 put back to the first argument. */
bool gmp_arch_signal_at_syscall(void *ucv, long nr)
{
	ucontext_t *uc = ucv;
	const uint32_t *ip = (const uint32_t *)uc->uc_mcontext.pc;
	return ip[0] == SVC0 && (long)uc->uc_mcontext.regs[8] == nr;
}

/* Makes a system call the kernel set to restart (the context on its svc,
 * gmp_arch_signal_at_syscall) return ret instead: what it would have
 * returned had the kernel not restarted it. */
void gmp_arch_signal_end_syscall(void *ucv, long ret)
{
	ucontext_t *uc = ucv;
	uc->uc_mcontext.pc += 4;
	uc->uc_mcontext.regs[0] = (unsigned long)ret;
}

/* Where a handler's return resumes the interrupted context. */
void gmp_arch_signal_set_pc(void *ucv, uintptr_t pc)
{
	ucontext_t *uc = ucv;
	uc->uc_mcontext.pc = pc;
}

/* Whether the interrupted context is at a system call: on an svc (about to
 * enter it, or to restart it after the handler: the kernel moves pc back
 * onto the svc and x0 back to the first argument), or just past one that
 * the handler ended with EINTR. */
bool gmp_arch_signal_in_syscall(void *ucv)
{
	ucontext_t *uc = ucv;
	const uint32_t *ip = (const uint32_t *)uc->uc_mcontext.pc;
	if (ip[0] == SVC0)
		return true;
	return (long)uc->uc_mcontext.regs[0] == -4 && ip[-1] == SVC0;
}

void gmp_arch_context_from_swap(void *ucv, uintptr_t sp)
{
	const uintptr_t *f = (const uintptr_t *)sp;
	mcontext_t *mc = &((ucontext_t *)ucv)->uc_mcontext;
	for (int i = 0; i <= F_X30 - F_X19; i++)
		mc->regs[19 + i] = f[F_X19 + i];
	mc->pc = f[F_X30];
	mc->sp = sp + F_WORDS * sizeof(uintptr_t);
}

void gmp_arch_context_set_pc_sp(void *ucv, uintptr_t pc, uintptr_t sp)
{
	mcontext_t *mc = &((ucontext_t *)ucv)->uc_mcontext;
	mc->pc = pc;
	mc->sp = sp;
}

/* ... and its frame pointer (0: unknown), to unwind from there. */
void gmp_arch_context_set_regs(void *ucv, uintptr_t pc, uintptr_t sp, uintptr_t fp)
{
	gmp_arch_context_set_pc_sp(ucv, pc, sp);
	((ucontext_t *)ucv)->uc_mcontext.regs[29] = fp;
}

/* The kernel's rt_sigframe: the siginfo at the stack pointer, then the
 * ucontext, whose uc_mcontext.__reserved holds records (struct
 * _aarch64_ctx: magic, size) up to one of magic 0; an extra_context
 * record points past the frame at more of them (datap, size), and nothing
 * else in the frame is an address.  The kernel puts a frame record
 * {x29, x30} just above it and points x29 there. */
void gmp_arch_sigframe_move(int sig, void *si, void *ucv, uintptr_t top, void *ret, gmp_arch_sigframe_fn fn,
			    void *arg)
{
	ucontext_t *uc = ucv;
	char *res = (char *)uc->uc_mcontext.__reserved, *start = si;
	char *end = res + sizeof uc->uc_mcontext.__reserved;
	struct extra_context *extra = NULL;
	for (size_t off = 0; off + sizeof(struct _aarch64_ctx) <= sizeof uc->uc_mcontext.__reserved;) {
		struct _aarch64_ctx *h = (struct _aarch64_ctx *)(res + off);
		if (h->magic == 0 || h->size < sizeof *h)
			break;
		if (h->magic == EXTRA_MAGIC) {
			extra = (struct extra_context *)h;
			if ((char *)extra->datap + extra->size > end)
				end = (char *)extra->datap + extra->size;
		}
		off += h->size;
	}
	size_t size = ((uintptr_t)(end - start) + 15) & ~(uintptr_t)15;
	uintptr_t to = (top - 16 - size) & ~(uintptr_t)15;
	intptr_t delta = (intptr_t)(to - (uintptr_t)start);
	memcpy((void *)to, start, size);
	if (extra != NULL)
		((struct extra_context *)((char *)extra + delta))->datap += (uint64_t)delta;
	uintptr_t *record = (uintptr_t *)(to + size);
	record[0] = uc->uc_mcontext.regs[29];
	record[1] = uc->uc_mcontext.regs[30];
	gmp_arch_sigframe_jump(to, sig, (char *)si + delta, (char *)uc + delta, fn, arg, ret, record);
}
