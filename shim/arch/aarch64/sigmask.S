/* void gmp_arch_sigmask_let_in(const uint64_t *mask) (aarch64):
 * rt_sigprocmask(SIG_SETMASK, mask, NULL, 8).  The signals the new mask
 * lets in that are pending in the kernel are delivered as the call
 * returns, with the interrupted pc at gmp_arch_sigmask_let_in_ret, which
 * the runtime takes for a point where the program's handlers may run
 * (gsignal.c, gmp_sigmask_change). */
	.text
	.globl	gmp_arch_sigmask_let_in
	.hidden	gmp_arch_sigmask_let_in
	.globl	gmp_arch_sigmask_let_in_ret
	.hidden	gmp_arch_sigmask_let_in_ret
	.type	gmp_arch_sigmask_let_in, %function
	.p2align 2
gmp_arch_sigmask_let_in:
	.cfi_startproc
	mov	x1, x0
	mov	x0, #2		/* SIG_SETMASK */
	mov	x2, #0
	mov	x3, #8
	mov	x8, #135	/* SYS_rt_sigprocmask */
	svc	#0
gmp_arch_sigmask_let_in_ret:
	ret
	.cfi_endproc
	.size	gmp_arch_sigmask_let_in, .-gmp_arch_sigmask_let_in
	.section .note.GNU-stack,"",%progbits
