#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "export.h"
#include "compat/realsym.h"
#include "shim/runtime.h"

/* Reads a pthread_attr_t through glibc's own getters: attributes are
 * glibc's data, including those set by calls we do not interpose. */
static void read_attr(const pthread_attr_t *attr, struct gmp_threadattr *ta)
{
	int detach = PTHREAD_CREATE_JOINABLE, inherit = PTHREAD_INHERIT_SCHED, policy = SCHED_OTHER;
	struct sched_param param = { 0 };
	void *stacklo = NULL;
	size_t stacksize = 0;
	pthread_attr_getdetachstate(attr, &detach);
	pthread_attr_getstacksize(attr, &ta->stacksize);
	pthread_attr_getguardsize(attr, &ta->guardsize);
	/* glibc keeps the top of a user stack, NULL when none was set, and
	 * reports top - size: an unset stack shows as lo + size == 0. */
	pthread_attr_getstack(attr, &stacklo, &stacksize);
	pthread_attr_getinheritsched(attr, &inherit);
	if (inherit == PTHREAD_EXPLICIT_SCHED) {
		pthread_attr_getschedpolicy(attr, &policy);
		pthread_attr_getschedparam(attr, &param);
	}
	if (ta->stacksize == 0)
		ta->stacksize = gmp_default_stacksize();
	ta->stackaddr = (uintptr_t)stacklo + stacksize != 0 ? stacklo : NULL;
	ta->detached = detach == PTHREAD_CREATE_DETACHED;
	ta->inheritsched = inherit;
	ta->sched_policy = policy;
	ta->sched_priority = param.sched_priority;
	sigset_t mask;
	ta->has_sigmask = pthread_attr_getsigmask_np(attr, &mask) == 0;
	if (ta->has_sigmask)
		memcpy(&ta->sigmask, &mask, sizeof ta->sigmask);
}

GMP_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
			      void *arg)
{
	extern __thread int gmp_creating_os_thread; /* mstart.c */
	if (__builtin_expect(gmp_creating_os_thread, 0))
		return gmp_real.pthread_create(thread, attr, start, arg);
	gmp_ensure_init();
	struct gmp_threadattr ta = { .createpc = (uintptr_t)__builtin_return_address(0) };
	if (attr) {
		read_attr(attr, &ta);
	} else {
		pthread_attr_t def;
		if (pthread_getattr_default_np(&def) != 0)
			return EAGAIN;
		read_attr(&def, &ta);
		pthread_attr_destroy(&def);
	}
	struct g *gp;
	int err = gmp_newthread(&gp, &ta, start, arg);
	if (err == 0)
		*thread = (pthread_t)gp->tcb;
	return err;
}
