#include <pthread.h>

#include "export.h"
#include "shim/sys.h"

/* pthread_t is the TCB address, which the FS base always points at. */
GMP_EXPORT pthread_t pthread_self(void)
{
	return (pthread_t)gmp_self_tcb();
}

GMP_EXPORT int pthread_equal(pthread_t a, pthread_t b)
{
	return a == b;
}
