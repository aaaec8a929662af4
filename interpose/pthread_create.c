#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/schedattr.h"
#include "shim/stack.h"
#include "shim/thread.h"
#include "thread_create.h"

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
	/* glibc answers every CPU for an attribute without a mask. */
	ta->has_affinity = pthread_attr_getaffinity_np(attr, sizeof ta->affinity, &ta->affinity) == 0 &&
			   CPU_COUNT(&ta->affinity) < CPU_SETSIZE;
	sigset_t mask;
	ta->has_sigmask = pthread_attr_getsigmask_np(attr, &mask) == 0;
	if (ta->has_sigmask)
		memcpy(&ta->sigmask, &mask, sizeof ta->sigmask);
}

int gmp_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg, bool c11,
	       uintptr_t createpc)
{
	extern __thread int gmp_creating_os_thread; /* mstart.c */
	if (__builtin_expect(gmp_creating_os_thread, 0))
		return gmp_real.pthread_create(thread, attr, start, arg);
	gmp_ensure_init();
	/* From now on another thread may cancel main. */
	gmp_main_adopt_record();
	struct gmp_threadattr ta = { .createpc = createpc, .c11 = c11 };
	if (attr) {
		read_attr(attr, &ta);
	} else {
		pthread_attr_t def;
		if (pthread_getattr_default_np(&def) != 0)
			return EAGAIN;
		read_attr(&def, &ta);
		pthread_attr_destroy(&def);
	}
	/* NPTL applies an explicit policy to the new thread and fails the
	 * creation where the kernel refuses it. */
	if (ta.inheritsched == PTHREAD_EXPLICIT_SCHED) {
		int err = gmp_checksched(ta.sched_policy, ta.sched_priority);
		if (err)
			return err;
	}
	struct g *gp;
	int err = gmp_newthread(&gp, &ta, start, arg);
	if (err == 0)
		*thread = (pthread_t)gp->tcb;
	return err;
}

GMP_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
			      void *arg)
{
	return gmp_create(thread, attr, start, arg, false, (uintptr_t)__builtin_return_address(0));
}
