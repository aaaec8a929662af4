/* Context switch for aarch64 (AAPCS64).
 *
 * A suspended context is just a stack pointer: gmp_swap stores the
 * callee-saved registers -- x19-x28, the frame pointer x29, the link
 * register x30, the low halves d8-d15 of v8-v15 -- and FPCR (the rounding
 * mode and trap enables, which the ABI has a thread keep across calls)
 * below the old sp, stores sp, loads the new sp and restores the same
 * layout.  Everything caller-saved is dead at a call boundary, which is
 * the only place a G is switched out in cooperative scheduling.
 *
 * Saved frame, from the stored sp upwards (176 bytes, sp stays 16-aligned):
 *   +0 x19 +8 x20 ... +72 x28 +80 x29 +88 x30 (where gmp_swap returns)
 *   +96 d8 ... +152 d15 +160 fpcr +168 unused
 * gmp_arch_new_context (context.c) builds the same frame for a new stack. */
	.text
	.globl	gmp_swap
	.hidden	gmp_swap
	.type	gmp_swap, %function
	.p2align 2
/* void gmp_swap(uintptr_t *save_sp, uintptr_t new_sp) */
gmp_swap:
	.cfi_startproc
	sub	sp, sp, #176
	.cfi_adjust_cfa_offset 176
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mrs	x9, fpcr
	str	x9, [sp, #160]
	mov	x9, sp
	str	x9, [x0]
	mov	sp, x1
	ldr	x9, [sp, #160]
	msr	fpcr, x9
	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	add	sp, sp, #176
	.cfi_adjust_cfa_offset -176
	ret
	.cfi_endproc
	.size	gmp_swap, .-gmp_swap

/* First code a new context runs: x19 holds the argument and x20 the entry
 * function (both set by gmp_arch_new_context), x29 is 0 so that frame-
 * pointer walks end here, and x30 is undefined for the DWARF unwinder. */
	.globl	gmp_context_start
	.hidden	gmp_context_start
	.type	gmp_context_start, %function
	.p2align 2
gmp_context_start:
	.cfi_startproc
	.cfi_undefined x30
	mov	x29, #0
	mov	x0, x19
	blr	x20
	brk	#0
	.cfi_endproc
	.size	gmp_context_start, .-gmp_context_start

/* void gmp_arch_sigframe_jump(uintptr_t sp, int sig, void *si, void *uc,
 *                             gmp_arch_sigframe_fn fn, void *arg, void *lr, void *fp)
 * fn starts as a handler the kernel had called with the frame at sp: its
 * return goes to lr, the restorer.  Through x16, which a BTI "c" landing
 * pad accepts for a BR. */
	.globl	gmp_arch_sigframe_jump
	.hidden	gmp_arch_sigframe_jump
	.type	gmp_arch_sigframe_jump, %function
	.p2align 2
gmp_arch_sigframe_jump:
	.cfi_startproc
	mov	sp, x0
	mov	x29, x7
	mov	x30, x6
	mov	x16, x4
	mov	w0, w1
	mov	x1, x2
	mov	x2, x3
	mov	x3, x5
	br	x16
	.cfi_endproc
	.size	gmp_arch_sigframe_jump, .-gmp_arch_sigframe_jump

	.section .note.GNU-stack,"",%progbits
