/* Context switch for x86_64 (System V ABI).
 *
 * A suspended context is just a stack pointer: gmp_swap pushes the
 * callee-saved registers, the SSE control/status word and the x87 control
 * word onto the old stack, stores rsp, loads the new rsp and pops the same
 * layout.  Everything caller-saved is dead at a call boundary, which is the
 * only place a G is switched out in cooperative scheduling.
 *
 * Saved frame, from the stored sp upwards:
 *   +0 mxcsr (4 bytes) +4 x87 cw (2 bytes) +8 r15 +16 r14 +24 r13 +32 r12
 *   +40 rbx +48 rbp +56 return address
 * gmp_arch_new_context (context.c) builds the same frame for a new stack. */
	.text
	.globl	gmp_swap
	.hidden	gmp_swap
	.type	gmp_swap, @function
/* void gmp_swap(uintptr_t *save_sp, uintptr_t new_sp) */
gmp_swap:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	subq	$8, %rsp
	stmxcsr	(%rsp)
	fnstcw	4(%rsp)
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	ldmxcsr	(%rsp)
	fldcw	4(%rsp)
	addq	$8, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	gmp_swap, .-gmp_swap

/* First code a new context runs: r12 holds the argument and r13 the entry
 * function (both set by gmp_arch_new_context).  rsp is 16-byte aligned here,
 * so the call below gives the callee the alignment the ABI promises. */
	.globl	gmp_context_start
	.hidden	gmp_context_start
	.type	gmp_context_start, @function
gmp_context_start:
	.cfi_startproc
	.cfi_undefined rip
	xorl	%ebp, %ebp
	movq	%r12, %rdi
	call	*%r13
	ud2
	.cfi_endproc
	.size	gmp_context_start, .-gmp_context_start

/* void gmp_arch_sigframe_jump(uintptr_t sp, int sig, void *si, void *uc,
 *                             gmp_arch_sigframe_fn fn, void *arg)
 * The word at sp is the frame's return address (its restorer): fn starts
 * as a handler the kernel had called with that frame. */
	.globl	gmp_arch_sigframe_jump
	.hidden	gmp_arch_sigframe_jump
	.type	gmp_arch_sigframe_jump, @function
gmp_arch_sigframe_jump:
	.cfi_startproc
	movq	%rdi, %rsp
	movl	%esi, %edi
	movq	%rdx, %rsi
	movq	%rcx, %rdx
	movq	%r9, %rcx
	jmp	*%r8
	.cfi_endproc
	.size	gmp_arch_sigframe_jump, .-gmp_arch_sigframe_jump

	.section .note.GNU-stack,"",@progbits
