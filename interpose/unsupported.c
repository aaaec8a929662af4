/* Calls that glibc would route to the OS thread behind a TID.  A G has no
 * OS thread of its own, so until cancellation lands they fail precisely
 * instead of acting on the wrong thread. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "export.h"
#include "shim/runtime.h"

GMP_EXPORT int pthread_cancel(pthread_t t)
{
	gmp_ensure_init();
	if (gmp_registry_get((void *)t) == NULL)
		return ESRCH;
	gmp_unsupported("pthread_cancel (ENOTSUP)");
	return ENOTSUP;
}
