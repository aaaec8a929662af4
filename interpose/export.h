/* Symbols the program calls: exported from the shim (everything else in
 * the library is hidden). */
#ifndef GMP_EXPORT_H
#define GMP_EXPORT_H

#define GMP_EXPORT __attribute__((visibility("default")))

#include <errno.h>
#include <stdint.h>
#include <time.h>

/* The next definition of a libc function we interpose, looked up once. */
#define GMP_REAL(fn)                                                                               \
	({                                                                                         \
		static __typeof__(fn) *real_;                                                      \
		if (real_ == NULL)                                                                 \
			real_ = (__typeof__(fn) *)gmp_dlsym_next(#fn);                              \
		real_;                                                                             \
	})
void *gmp_dlsym_next(const char *name);

/* A raw system call result as libc returns it: -1 with errno set. */
static inline long gmp_ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* Converts an absolute time on clk to a CLOCK_MONOTONIC deadline in ns.
 * Returns -1 with *err = EINVAL for a malformed timespec. */
int64_t gmp_abs_deadline(clockid_t clk, const struct timespec *abstime, int *err);

#endif
