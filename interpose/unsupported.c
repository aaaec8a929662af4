/* Calls that glibc would route to the OS thread behind a TID.  A G has no
 * OS thread of its own, so until the signals and cancellation work lands
 * they fail precisely instead of signalling the wrong thread. */
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

GMP_EXPORT int pthread_kill(pthread_t t, int sig)
{
	gmp_ensure_init();
	if (sig < 0 || sig >= NSIG)
		return EINVAL;
	struct g *gp = gmp_registry_get((void *)t);
	if (gp == NULL || __atomic_load_n(&gp->status, __ATOMIC_ACQUIRE) == G_DEAD)
		return ESRCH;
	if (sig == 0)
		return 0;
	if (gp == getg()) {
		/* The calling G is on this OS thread right now. */
		long r = syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), sig);
		return r == 0 ? 0 : errno;
	}
	gmp_unsupported("pthread_kill to another thread (ENOTSUP)");
	return ENOTSUP;
}
