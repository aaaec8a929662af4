/* Thread names, per G (shim/thread.h): pthread_setname_np and
 * pthread_getname_np, and prctl's PR_SET_NAME and PR_GET_NAME, which name
 * the calling thread (the M's task runs every G it is given); and prctl's
 * other per-thread question, PR_GET_TID_ADDRESS (shim/futex.h). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/futex.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"
#include "shim/thread.h"

/* The thread t names, or an errno: NPTL's ENOENT for one that has exited
 * (its /proc entry is gone). */
static int named(pthread_t t, struct g **gp)
{
	gmp_ensure_init();
	*gp = gmp_registry_get((void *)t);
	if (*gp == NULL)
		return ESRCH;
	return __atomic_load_n(&(*gp)->status, __ATOMIC_ACQUIRE) == G_DEAD ? ENOENT : 0;
}

GMP_EXPORT int pthread_setname_np(pthread_t t, const char *name)
{
	struct g *gp;
	if (strlen(name) >= sizeof gp->name)
		return ERANGE;
	int err = named(t, &gp);
	if (err == 0)
		gmp_setname(gp, name);
	return err;
}

GMP_EXPORT int pthread_getname_np(pthread_t t, char *buf, size_t len)
{
	struct g *gp;
	if (len < sizeof gp->name)
		return ERANGE;
	int err = named(t, &gp);
	return err ? err : gmp_getname(gp, buf);
}

GMP_EXPORT int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a[4];
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	struct g *gp = gmp_initialized ? getg() : NULL;
	if (gp == NULL || (gp->flags & G_FOREIGN) ||
	    (option != PR_SET_NAME && option != PR_GET_NAME && option != PR_GET_TID_ADDRESS))
		return GMP_REAL(prctl)(option, a[0], a[1], a[2], a[3]);
	if (option == PR_GET_TID_ADDRESS) {
		*(int **)a[0] = gmp_futex_tid_address(gp);
		return 0;
	}
	if (option == PR_GET_NAME) {
		int err = gmp_getname(gp, (char *)a[0]);
		return err ? (errno = err, -1) : 0;
	}
	gmp_setname(gp, (const char *)a[0]);
	return 0;
}
