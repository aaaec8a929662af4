/* A blocking system call that pthread_cancel can stop (x86_64).
 *
 * long gmp_syscall_cancel_arch(const uint32_t *kick, long nr,
 *                              long a1, long a2, long a3, long a4, long a5, long a6)
 *
 * The canceller sets *kick and then signals the M.  A word tested just before
 * the syscall instruction leaves a window: the signal may land after the
 * test and before the kernel is entered, and the call would then block for
 * good.  So the handler (cancel.c) looks at the interrupted pc: anywhere in
 * [gmp_syscall_cancel_begin, gmp_syscall_cancel_end) -- before the test, on
 * it, or on the syscall instruction itself, where the kernel leaves a call it
 * is about to restart -- it moves the pc to gmp_syscall_cancel_kicked.  A
 * call the kernel ended with EINTR returns past the range and reports EINTR.
 * (glibc 2.41's __syscall_cancel_arch closes the same window the same way.) */
	.text
	.globl	gmp_syscall_cancel_arch
	.hidden	gmp_syscall_cancel_arch
	.globl	gmp_syscall_cancel_begin
	.hidden	gmp_syscall_cancel_begin
	.globl	gmp_syscall_cancel_end
	.hidden	gmp_syscall_cancel_end
	.globl	gmp_syscall_cancel_kicked
	.hidden	gmp_syscall_cancel_kicked
	.type	gmp_syscall_cancel_arch, @function
gmp_syscall_cancel_arch:
	.cfi_startproc
	movq	%rdi, %r11
	movq	%rsi, %rax
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %r10
	movq	8(%rsp), %r8
	movq	16(%rsp), %r9
gmp_syscall_cancel_begin:
	cmpl	$0, (%r11)
	jne	gmp_syscall_cancel_kicked
	syscall
gmp_syscall_cancel_end:
	ret
gmp_syscall_cancel_kicked:
	movq	$-125, %rax	/* -ECANCELED: never a result of the calls made here */
	ret
	.cfi_endproc
	.size	gmp_syscall_cancel_arch, .-gmp_syscall_cancel_arch
	.section .note.GNU-stack,"",@progbits
