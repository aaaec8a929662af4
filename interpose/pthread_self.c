#include <pthread.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/init.h"
#include "shim/sys.h"

/* pthread_t is the TCB address, which the thread pointer always locates.
 * Where the two differ (aarch64: struct pthread lies below the thread
 * pointer) the distance is glibc's, learnt at start-up: until then, as
 * in another library's constructor, glibc's own answer. */
GMP_EXPORT pthread_t pthread_self(void)
{
	if (__builtin_expect(!gmp_initialized, 0))
		return GMP_REAL(pthread_self)();
	return (pthread_t)gmp_self_tcb();
}

GMP_EXPORT int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}
