/* A blocking system call that pthread_cancel can stop (aarch64).
 *
 * long gmp_syscall_cancel_arch(const uint32_t *kick, long nr,
 *                              long a1, long a2, long a3, long a4, long a5, long a6)
 *
 * The canceller sets *kick and then signals the M.  A word tested just before
 * the svc leaves a window: the signal may land after the test and before the
 * kernel is entered, and the call would then block for good.  So the handler
 * (cancel.c) looks at the interrupted pc: anywhere in
 * [gmp_syscall_cancel_begin, gmp_syscall_cancel_end) -- before the test, on
 * it, or on the svc itself, where the kernel leaves a call it is about to
 * restart -- it moves the pc to gmp_syscall_cancel_kicked.  A call the kernel
 * ended with EINTR returns past the range and reports EINTR.  The arguments
 * are in place before begin, so the kicked exit needs none of them.  (glibc
 * 2.41's __syscall_cancel_arch closes the same window the same way.) */
	.text
	.globl	gmp_syscall_cancel_arch
	.hidden	gmp_syscall_cancel_arch
	.globl	gmp_syscall_cancel_begin
	.hidden	gmp_syscall_cancel_begin
	.globl	gmp_syscall_cancel_end
	.hidden	gmp_syscall_cancel_end
	.globl	gmp_syscall_cancel_kicked
	.hidden	gmp_syscall_cancel_kicked
	.type	gmp_syscall_cancel_arch, %function
	.p2align 2
gmp_syscall_cancel_arch:
	.cfi_startproc
	mov	x9, x0
	mov	x8, x1
	mov	x0, x2
	mov	x1, x3
	mov	x2, x4
	mov	x3, x5
	mov	x4, x6
	mov	x5, x7
gmp_syscall_cancel_begin:
	ldr	w10, [x9]
	cbnz	w10, gmp_syscall_cancel_kicked
	svc	#0
gmp_syscall_cancel_end:
	ret
gmp_syscall_cancel_kicked:
	mov	x0, #-125	/* -ECANCELED: never a result of the calls made here */
	ret
	.cfi_endproc
	.size	gmp_syscall_cancel_arch, .-gmp_syscall_cancel_arch
	.section .note.GNU-stack,"",%progbits
