/* syscall(2): private futex operations park the G (shim/futex.c); every
 * other system call passes through unchanged. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#include "export.h"
#include "shim/futex.h"
#include "shim/runtime.h"
#include "shim/sys.h"

GMP_EXPORT long syscall(long number, ...)
{
	va_list ap;
	va_start(ap, number);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	long r;
	if (number == SYS_futex && gmp_initialized && gmp_futex_handled((int)a[1]))
		r = gmp_sys_futex((uint32_t *)a[0], (int)a[1], (uint32_t)a[2], (const struct timespec *)a[3],
				  (uint32_t *)a[4], (uint32_t)a[5]);
	else
		r = gmp_syscall6(number, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
