#include <pthread.h>

#include "export.h"
#include "shim/runtime.h"

int gmp_detach(const void *thread);

GMP_EXPORT int pthread_detach(pthread_t t)
{
	gmp_ensure_init();
	return gmp_detach((const void *)t);
}
