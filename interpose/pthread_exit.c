#include <pthread.h>

#include "export.h"
#include "shim/runtime.h"

void gmp_thread_exit(void *retval) __attribute__((noreturn));

GMP_EXPORT void pthread_exit(void *retval)
{
	gmp_ensure_init();
	gmp_thread_exit(retval);
}
