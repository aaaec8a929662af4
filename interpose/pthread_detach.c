#include <errno.h>
#include <pthread.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/thread.h"

GMP_EXPORT int pthread_detach(pthread_t t)
{
	gmp_ensure_init();
	int err = gmp_detach((const void *)t);
	/* A foreign thread (shim/foreign.c) is glibc's to detach. */
	if (err == ESRCH && gmp_foreign_tcb((const void *)t))
		err = GMP_REAL(pthread_detach)(t);
	return err;
}
