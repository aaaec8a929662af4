/* Symbols the program calls: exported from the shim (everything else in
 * the library is hidden). */
#ifndef GMP_EXPORT_H
#define GMP_EXPORT_H

#define GMP_EXPORT __attribute__((visibility("default")))

#include <stdint.h>
#include <time.h>

/* Converts an absolute time on clk to a CLOCK_MONOTONIC deadline in ns.
 * Returns -1 with *err = EINVAL for a malformed timespec. */
int64_t gmp_abs_deadline(clockid_t clk, const struct timespec *abstime, int *err);

#endif
