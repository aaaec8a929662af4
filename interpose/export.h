/* Symbols the program calls: exported from the shim (everything else in
 * the library is hidden). */
#ifndef GMP_EXPORT_H
#define GMP_EXPORT_H

#define GMP_EXPORT __attribute__((visibility("default")))

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>


/* A raw system call result as libc returns it: -1 with errno set. */
static inline long gmp_ret(long r)
{
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* Converts an absolute time on clk to a deadline (shim/timer.h): on
 * CLOCK_MONOTONIC, monotonic ns; on CLOCK_REALTIME, realtime ns tagged
 * GMP_DEADLINE_REALTIME, so that it follows clock changes.  -1 (none) for
 * a time too far ahead to matter; -1 with *err = EINVAL for a malformed
 * timespec or another clock. */
int64_t gmp_abs_deadline(clockid_t clk, const struct timespec *abstime, int *err);
/* Waits longer than this (about 31 years) are taken as forever: the ns
 * arithmetic stays far from overflow and from GMP_DEADLINE_REALTIME. */
#define GMP_FOREVER_SEC 1000000000LL

#endif
