/* futex(2) in user space for Gs (futex.c). */
#ifndef GMP_FUTEX_H
#define GMP_FUTEX_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* Whether gmp_sys_futex models op (else it goes to the kernel). */
bool gmp_futex_handled(int op);
/* The futex system call for a G: what the kernel would return (a count,
 * 0, or -errno). */
long gmp_sys_futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3);

#endif
