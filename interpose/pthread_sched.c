/* Scheduling policy and priority per thread (shim/schedattr.c): the
 * pthread calls, and the sched_* calls that name the calling thread (pid
 * 0) or the initial one (the process ID, which Linux takes as its TID).
 * The scheduler acts on them (shim/rtprio.c); a thread that lowered itself
 * below a runnable one gives way before the call returns. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/preempt.h"
#include "shim/rtprio.h"
#include "shim/runtime.h"
#include "shim/schedattr.h"

GMP_EXPORT int pthread_setschedparam(pthread_t t, int policy, const struct sched_param *param)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	if (gp == NULL)
		return ESRCH;
	int err = gmp_setsched(gp, policy, param->sched_priority);
	gmp_preempt_point();
	return err;
}

GMP_EXPORT int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *param)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	if (gp == NULL)
		return ESRCH;
	*policy = gp->sched_policy;
	*param = (struct sched_param){ .sched_priority = gp->sched_priority };
	return 0;
}

GMP_EXPORT int pthread_setschedprio(pthread_t t, int prio)
{
	gmp_ensure_init();
	struct g *gp = gmp_registry_live((void *)t);
	if (gp == NULL)
		return ESRCH;
	int err = gmp_setsched(gp, gp->sched_policy, prio);
	gmp_preempt_point();
	return err;
}

GMP_EXPORT int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param)
{
	struct g *gp = gmp_tid_g(pid);
	if (gp == NULL)
		return GMP_REAL(sched_setscheduler)(pid, policy, param);
	int err = param ? gmp_setsched(gp, policy, param->sched_priority) : EINVAL;
	if (err == 0)
		gmp_rt_kernel_apply(gp); /* a process of one thread: the kernel too */
	gmp_preempt_point();
	return err ? (errno = err, -1) : 0;
}

GMP_EXPORT int sched_getscheduler(pid_t pid)
{
	struct g *gp = gmp_tid_g(pid);
	return gp ? gp->sched_policy : GMP_REAL(sched_getscheduler)(pid);
}

GMP_EXPORT int sched_setparam(pid_t pid, const struct sched_param *param)
{
	struct g *gp = gmp_tid_g(pid);
	if (gp == NULL)
		return GMP_REAL(sched_setparam)(pid, param);
	int err = param ? gmp_setsched(gp, gp->sched_policy, param->sched_priority) : EINVAL;
	if (err == 0)
		gmp_rt_kernel_apply(gp);
	gmp_preempt_point();
	return err ? (errno = err, -1) : 0;
}

GMP_EXPORT int sched_getparam(pid_t pid, struct sched_param *param)
{
	struct g *gp = gmp_tid_g(pid);
	if (gp == NULL)
		return GMP_REAL(sched_getparam)(pid, param);
	if (param == NULL)
		return errno = EINVAL, -1;
	*param = (struct sched_param){ .sched_priority = gp->sched_priority };
	return 0;
}
