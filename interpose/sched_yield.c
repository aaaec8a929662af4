#include <sched.h>

#include "export.h"
#include "shim/runtime.h"

GMP_EXPORT int sched_yield(void)
{
	gmp_ensure_init();
	gosched();
	return 0;
}

GMP_EXPORT int pthread_yield(void)
{
	return sched_yield();
}
