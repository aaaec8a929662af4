#include <errno.h>
#include <pthread.h>

#include "compat/layout.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"

GMP_EXPORT int pthread_getattr_np(pthread_t t, pthread_attr_t *attr)
{
	/* A thread that is no G asking about itself (a runtime thread that a
	 * sanitizer starts, the initial thread before the runtime exists):
	 * NPTL made it and knows its stack. */
	if (getg() == NULL && t == pthread_self())
		return gmp_real.pthread_getattr_np(t, attr);
	gmp_ensure_init();
	struct g *gp = gmp_registry_get((void *)t);
	if (gp == NULL)
		return ESRCH;
	int err;
	if (gp->flags & G_MAIN) {
		/* The initial thread's TCB is glibc's own: glibc knows its stack. */
		err = gmp_real.pthread_getattr_np(t, attr);
	} else {
		err = pthread_attr_init(attr);
		if (err == 0) {
			pthread_attr_setstack(attr, gp->stack_lo, gp->stack_size);
			pthread_attr_setguardsize(attr, gp->guard_size);
			pthread_attr_setdetachstate(attr, __atomic_load_n(&gp->joinstate, __ATOMIC_ACQUIRE) ==
									  JS_DETACHED
								  ? PTHREAD_CREATE_DETACHED
								  : PTHREAD_CREATE_JOINABLE);
		}
	}
	if (err)
		return err;
	struct sched_param param = { .sched_priority = gp->sched_priority };
	pthread_attr_setinheritsched(attr, gp->inheritsched);
	pthread_attr_setschedparam(attr, &param);
	((struct gmp_attr_head *)attr)->sched_policy = gp->sched_policy & ~SCHED_RESET_ON_FORK;
	return pthread_attr_setaffinity_np(attr, sizeof gp->affinity, &gp->affinity);
}
