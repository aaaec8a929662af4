/* The initial thread's stack (mainstack.c), found without malloc. */
#ifndef GMP_MAINSTACK_H
#define GMP_MAINSTACK_H

#include <stddef.h>

/* The main thread's stack bounds, from /proc/self/maps read with raw
 * calls: start-up may run inside a malloc that takes pthread mutexes. */
void gmp_main_stack(void **lo, size_t *size);

#endif
