/* CPU affinity per thread (shim/schedattr.c): the pthread calls, and the
 * sched_* calls that name the calling thread (pid 0) or the initial one. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"
#include "shim/schedattr.h"

GMP_EXPORT int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	return gp ? gmp_setaffinity(gp, size, set) : ESRCH;
}

GMP_EXPORT int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	return gp ? gmp_getaffinity(gp, size, set) : ESRCH;
}

GMP_EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	struct g *gp = gmp_tid_g(pid);
	if (gp == NULL)
		return GMP_REAL(sched_setaffinity)(pid, size, set);
	int err = gmp_setaffinity(gp, size, set);
	return err ? (errno = err, -1) : 0;
}

GMP_EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	struct g *gp = gmp_tid_g(pid);
	if (gp == NULL)
		return GMP_REAL(sched_getaffinity)(pid, size, set);
	int err = gmp_getaffinity(gp, size, set);
	return err ? (errno = err, -1) : 0;
}
