#include <pthread.h>

#include "compat/unwind_exit.h"
#include "export.h"
#include "shim/init.h"

GMP_EXPORT void pthread_exit(void *retval)
{
	gmp_ensure_init();
	/* A forced unwind: cleanup handlers and destructors of the thread's
	 * frames run, then its exit (compat/unwind_exit.c). */
	gmp_exit_unwind(retval);
}
