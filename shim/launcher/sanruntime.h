/* sanruntime.c: the sanitizer runtime a program needs first (for gmprun). */
#ifndef GMP_SANRUNTIME_H
#define GMP_SANRUNTIME_H
#include <stddef.h>

/* Looks cmd up as execvp would (or takes it as a path if it has a slash)
 * and stores the DT_NEEDED name of its ASan/TSan/LSan runtime (such as
 * "libasan.so.8") in out.  Returns 0, or
 * -1 when the program needs none (or cannot be read). */
int gmp_sanitizer_runtime(const char *cmd, char *out, size_t outsz);

#endif
