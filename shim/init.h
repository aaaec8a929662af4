/* Start-up (init.c): the runtime starts on the first call that needs it. */
#ifndef GMP_INIT_H
#define GMP_INIT_H

#include "runtime.h"

void gmp_init(void);
static inline void gmp_ensure_init(void)
{
	if (__builtin_expect(!gmp_initialized, 0))
		gmp_init();
}

#endif
