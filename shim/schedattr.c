/* Scheduling policy, priority and CPU affinity of a G.
 *
 * NPTL hands these to the kernel for the thread's TID.  A G has no kernel
 * thread of its own: it runs on whichever M its P has, so a policy or a
 * mask applied to an M would act on every G that M runs next.  So we keep
 * them per G and report them back; the scheduler acts on the realtime
 * policies itself (rtprio.c), the affinity is only kept.  What the kernel
 * would refuse we refuse with the kernel's errno. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/debug.h"
#include "rtprio.h"
#include "runtime.h"
#include "schedattr.h"
#include "sys.h"
#include "thread.h"

/* Bytes of the kernel's CPU mask (nr_cpu_ids rounded up to longs), and
 * the CPUs online: a mask naming none of them is EINVAL, as the kernel's. */
static size_t kmask_bytes = sizeof(long);
static cpu_set_t online;
static int online_state; /* 0 unread, 1 reading, 2 read */

void gmp_schedattr_init_main(struct g *gp)
{
	long n = gmp_syscall(SYS_sched_getaffinity, 0, sizeof gp->affinity, &gp->affinity);
	if (n > 0)
		kmask_bytes = (size_t)n;
	else
		memset(&gp->affinity, 0xff, sizeof gp->affinity);
	struct sched_param sp = { 0 };
	long policy = gmp_syscall(SYS_sched_getscheduler, 0, 0, 0);
	gmp_syscall(SYS_sched_getparam, 0, &sp, 0);
	gp->sched_policy = policy < 0 ? SCHED_OTHER : (int)policy;
	gp->sched_priority = sp.sched_priority;
	gp->inheritsched = PTHREAD_INHERIT_SCHED;
	gmp_rt_newg(gp);
}

/* A new G takes its creator's scheduling unless the attribute says
 * explicit, and its creator's mask unless the attribute gives one. */
void gmp_schedattr_inherit(struct g *gp, const struct g *parent, const struct gmp_threadattr *ta)
{
	gp->inheritsched = ta->inheritsched;
	if (ta->inheritsched == PTHREAD_EXPLICIT_SCHED) {
		gp->sched_policy = ta->sched_policy;
		gp->sched_priority = ta->sched_priority;
	} else {
		/* SCHED_RESET_ON_FORK is a property of the creator, not
		 * inherited, and it resets a real-time policy (sched(7)). */
		int policy = parent->sched_policy;
		bool reset = policy & SCHED_RESET_ON_FORK;
		policy &= ~SCHED_RESET_ON_FORK;
		bool rt = policy == SCHED_FIFO || policy == SCHED_RR;
		gp->sched_policy = reset && rt ? SCHED_OTHER : policy;
		gp->sched_priority = reset && rt ? 0 : parent->sched_priority;
	}
	gp->affinity = ta->has_affinity ? ta->affinity : parent->affinity;
}

/* Whether the kernel lets this process take a real-time policy: asked of
 * the calling M itself, whose own policy is put back at once, so that
 * capabilities, RLIMIT_RTPRIO and the cgroup's real-time budget all count
 * exactly as they would natively. */
static int rt_allowed(int policy, int prio)
{
	struct sched_param was = { 0 }, want = { .sched_priority = prio };
	long old = gmp_syscall(SYS_sched_getscheduler, 0, 0, 0);
	if (old < 0 || gmp_syscall(SYS_sched_getparam, 0, &was, 0) < 0)
		return EPERM;
	long r = gmp_syscall(SYS_sched_setscheduler, 0, policy, &want);
	if (r < 0)
		return (int)-r;
	gmp_syscall(SYS_sched_setscheduler, 0, old, &was);
	return 0;
}

/* What the kernel would answer a thread asking for this policy. */
int gmp_checksched(int policy, int prio)
{
	int base = policy & ~SCHED_RESET_ON_FORK;
	switch (base) {
	case SCHED_FIFO:
	case SCHED_RR:
		if (prio < 1 || prio > 99)
			return EINVAL;
		int err = rt_allowed(policy, prio);
		if (err)
			return err;
		break;
	case SCHED_OTHER:
	case SCHED_BATCH:
	case SCHED_IDLE:
		if (prio != 0)
			return EINVAL;
		break;
	default: /* SCHED_DEADLINE needs sched_setattr; others do not exist */
		return EINVAL;
	}
	return 0;
}

/* The kernel's struct sched_attr (its first 48 bytes are version 0). */
struct kattr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};
#define ATTR_VER0 48
#define ATTR_MAX 4096 /* the kernel's limit on what it reads: a page */
#define FLAG_RESET_ON_FORK 0x01
#define FLAG_KEEP_POLICY 0x08
#define FLAG_KEEP_PARAMS 0x10
#define FLAG_UTIL_CLAMP 0x60
#define FLAGS_KNOWN 0x7f

long gmp_sched_setattr(struct g *gp, const void *attr, unsigned int flags)
{
	if (attr == NULL || flags != 0)
		return -EINVAL;
	uint32_t size = *(const uint32_t *)attr;
	if (size == 0)
		size = ATTR_VER0;
	if (size < ATTR_VER0 || size > ATTR_MAX)
		return -E2BIG;
	for (uint32_t i = sizeof(struct kattr); i < size; i++)
		if (((const unsigned char *)attr)[i] != 0)
			return -E2BIG; /* a field newer than we know, set */
	struct kattr a = { 0 };
	memcpy(&a, attr, size < sizeof a ? size : sizeof a);
	if (a.flags & ~(uint64_t)FLAGS_KNOWN)
		return -EINVAL;
	int base = gp->sched_policy & ~SCHED_RESET_ON_FORK;
	int policy = (a.flags & FLAG_KEEP_POLICY) ? base : (int)a.policy;
	int prio = (a.flags & FLAG_KEEP_PARAMS) ? gp->sched_priority : (int)a.priority;
	if (policy == SCHED_DEADLINE) {
		gmp_unsupported("sched_setattr: SCHED_DEADLINE for a thread (EBUSY): the runtime schedules no deadlines");
		return -EBUSY;
	}
	int err = gmp_setsched(gp, policy | ((a.flags & FLAG_RESET_ON_FORK) ? SCHED_RESET_ON_FORK : 0), prio);
	if (err)
		return -err;
	if (!(a.flags & FLAG_KEEP_PARAMS) && (policy == SCHED_OTHER || policy == SCHED_BATCH))
		gmp_syscall(SYS_setpriority, PRIO_PROCESS, gmp_kernel_tid(gp->tid), a.nice);
	gmp_rt_kernel_apply(gp);
	return 0;
}

long gmp_sched_getattr(struct g *gp, void *attr, unsigned int size, unsigned int flags)
{
	if (attr == NULL || flags != 0 || size < ATTR_VER0 || size > ATTR_MAX)
		return -EINVAL;
	struct kattr a = { 0 };
	if (gmp_syscall6(SYS_sched_getattr, gmp_kernel_tid(gp->tid), (long)&a, sizeof a, 0, 0, 0) < 0)
		a = (struct kattr){ .util_max = 1024 };
	a.policy = (uint32_t)(gp->sched_policy & ~SCHED_RESET_ON_FORK);
	a.flags = (a.flags & FLAG_UTIL_CLAMP) | ((gp->sched_policy & SCHED_RESET_ON_FORK) ? FLAG_RESET_ON_FORK : 0);
	a.priority = (uint32_t)gp->sched_priority;
	a.runtime = a.deadline = a.period = 0;
	a.size = size < sizeof a ? size : sizeof a;
	memcpy(attr, &a, a.size);
	return 0;
}

int gmp_setsched(struct g *gp, int policy, int prio)
{
	int err = gmp_checksched(policy, prio);
	if (err)
		return err;
	gp->sched_policy = policy;
	gp->sched_priority = prio;
	gmp_rt_update(gp);
	return 0;
}

static void parse_online(void)
{
	int fd = (int)gmp_syscall6(SYS_openat, AT_FDCWD, (long)"/sys/devices/system/cpu/online", O_RDONLY | O_CLOEXEC, 0, 0, 0);
	char buf[512];
	long n = fd < 0 ? -1 : gmp_syscall(SYS_read, fd, buf, sizeof buf - 1);
	if (fd >= 0)
		gmp_syscall(SYS_close, fd, 0, 0);
	if (n <= 0) {
		memset(&online, 0xff, sizeof online);
		return;
	}
	buf[n] = 0;
	CPU_ZERO(&online);
	for (char *s = buf; *s >= '0' && *s <= '9';) {
		long lo = strtol(s, &s, 10), hi = lo;
		if (*s == '-')
			hi = strtol(s + 1, &s, 10);
		for (long c = lo; c <= hi && c < CPU_SETSIZE; c++)
			CPU_SET(c, &online);
		if (*s == ',')
			s++;
	}
}

static const cpu_set_t *online_cpus(void)
{
	int st = 0;
	if (__atomic_compare_exchange_n(&online_state, &st, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
		parse_online();
		__atomic_store_n(&online_state, 2, __ATOMIC_RELEASE);
	}
	while (__atomic_load_n(&online_state, __ATOMIC_ACQUIRE) != 2)
		gmp_arch_pause();
	return &online;
}

int gmp_setaffinity(struct g *gp, size_t size, const cpu_set_t *set)
{
	cpu_set_t want, usable;
	CPU_ZERO(&want);
	memcpy(&want, set, size < sizeof want ? size : sizeof want);
	CPU_AND(&usable, &want, online_cpus());
	if (CPU_COUNT(&usable) == 0)
		return EINVAL;
	gp->affinity = usable;
	return 0;
}

int gmp_getaffinity(struct g *gp, size_t size, cpu_set_t *set)
{
	/* The kernel's rules: room for its whole mask, in longs. */
	if (size < kmask_bytes || size % sizeof(long) != 0)
		return EINVAL;
	size_t n = kmask_bytes < sizeof gp->affinity ? kmask_bytes : sizeof gp->affinity;
	memcpy(set, &gp->affinity, n);
	memset((char *)set + n, 0, size - n);
	return 0;
}
