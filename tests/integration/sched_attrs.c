/* Scheduling policy, priority and CPU affinity per thread: what one
 * thread sets is what it and others read back, new threads inherit or
 * take the attribute's values, and the kernel's refusals are the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"

static int policy_of(pthread_t t, int *prio)
{
	int policy = -1;
	struct sched_param sp = { .sched_priority = -1 };
	int err = pthread_getschedparam(t, &policy, &sp);
	*prio = sp.sched_priority;
	return err ? -err : policy;
}

static pthread_barrier_t bar;

/* The kernel's struct sched_attr; glibc 2.36 has no wrapper. */
struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

static int setattr(uint32_t policy, uint32_t prio)
{
	struct attr a = { .size = sizeof a, .policy = policy, .priority = prio };
	if (policy == 6 /* SCHED_DEADLINE */)
		a.runtime = 10000000, a.deadline = a.period = 100000000;
	return syscall(SYS_sched_setattr, 0, &a, 0) == 0 ? 0 : errno;
}

/* sched_setattr and sched_getattr agree with sched_getscheduler and
 * sched_getparam, whether a policy is granted or refused (stress-ng's
 * schedpolicy stressor checks so: under the shim sched_setattr went to
 * the M's task and sched_getscheduler answered for the thread). */
static void *attr_calls(void *arg)
{
	int *ok = arg;
	struct attr a;
	struct sched_param sp;
	*ok = setattr(SCHED_BATCH, 0) == 0 && sched_getscheduler(0) == SCHED_BATCH &&
	      syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) == 0 && a.policy == SCHED_BATCH && a.size == sizeof a;
	int err = setattr(SCHED_FIFO, 5);
	*ok = *ok && (err == 0 ? sched_getscheduler(0) == SCHED_FIFO && sched_getparam(0, &sp) == 0 && sp.sched_priority == 5
			       : err == EPERM && sched_getscheduler(0) == SCHED_BATCH);
	int before = sched_getscheduler(0);
	err = setattr(6, 0);
	*ok = *ok && (err == 0 ? sched_getscheduler(0) == 6 : (err == EBUSY || err == EPERM) && sched_getscheduler(0) == before);
	*ok = *ok && setattr(SCHED_OTHER, 0) == 0 && sched_getscheduler(0) == SCHED_OTHER &&
	      syscall(SYS_sched_getattr, 0, &a, sizeof a, 0) == 0 && a.policy == SCHED_OTHER && a.priority == 0;
	*ok = *ok && setattr(4242, 0) == EINVAL;
	return NULL;
}

/* Parks until main has looked at it, then reports what it sees of itself
 * through the sched_* calls and creates a child with default attributes. */
static void *child_policy(void *arg)
{
	int prio;
	*(int *)arg = policy_of(pthread_self(), &prio);
	return NULL;
}

static void *observed(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar); /* main sets our attributes */
	pthread_barrier_wait(&bar);
	CHECK(sched_getscheduler(0) == SCHED_BATCH, "sched_getscheduler(0) sees what another thread set");
	cpu_set_t set;
	CHECK(sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1 && CPU_ISSET(0, &set),
	      "sched_getaffinity(0) sees the mask another thread set");
	pthread_t c;
	int cpol = -1;
	pthread_create(&c, NULL, child_policy, &cpol);
	pthread_join(c, NULL);
	CHECK(cpol == SCHED_BATCH, "a child with default attributes inherits the policy");
	struct sched_param sp = { 0 };
	CHECK(sched_setscheduler(0, SCHED_IDLE, &sp) == 0 && sched_getscheduler(0) == SCHED_IDLE,
	      "sched_setscheduler(0, SCHED_IDLE) and back");
	sched_setscheduler(0, SCHED_BATCH, &sp);
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar); /* main checks */
	return NULL;
}

static void *affinity_child(void *arg)
{
	cpu_set_t *out = arg;
	pthread_getaffinity_np(pthread_self(), sizeof *out, out);
	return NULL;
}

int main(void)
{
	int prio, pol;
	pol = policy_of(pthread_self(), &prio);
	CHECK(pol == SCHED_OTHER && prio == 0, "main thread: SCHED_OTHER, priority 0");

	pthread_barrier_init(&bar, NULL, 2);
	pthread_t t;
	pthread_create(&t, NULL, observed, NULL);
	pthread_barrier_wait(&bar);
	pol = policy_of(t, &prio);
	CHECK(pol == SCHED_OTHER && prio == 0, "new thread inherits SCHED_OTHER, priority 0");
	struct sched_param sp = { .sched_priority = 5 };
	CHECK(pthread_setschedparam(t, SCHED_OTHER, &sp) == EINVAL, "SCHED_OTHER with priority 5: EINVAL");
	CHECK(pthread_setschedparam(t, 4242, &sp) == EINVAL, "unknown policy: EINVAL");
	sp.sched_priority = 100;
	CHECK(pthread_setschedparam(t, SCHED_FIFO, &sp) == EINVAL, "SCHED_FIFO priority 100: EINVAL");
	sp.sched_priority = 0;
	CHECK(pthread_setschedparam(t, SCHED_FIFO, &sp) == EINVAL, "SCHED_FIFO priority 0: EINVAL");

	/* Real-time policies need privilege: whatever the kernel says
	 * natively, the shim must say too. */
	sp.sched_priority = 7;
	int rt = pthread_setschedparam(t, SCHED_RR, &sp);
	printf("SCHED_RR 7 on another thread: %s\n", rt == 0 ? "allowed" : strerror(rt));
	if (rt == 0) {
		pol = policy_of(t, &prio);
		CHECK(pol == SCHED_RR && prio == 7, "getschedparam reports SCHED_RR 7");
		CHECK(pthread_setschedprio(t, 9) == 0, "setschedprio 9");
		pol = policy_of(t, &prio);
		CHECK(pol == SCHED_RR && prio == 9, "getschedparam reports SCHED_RR 9");
	}
	sp.sched_priority = 0;
	CHECK(pthread_setschedparam(t, SCHED_BATCH, &sp) == 0, "SCHED_BATCH on another thread");
	CHECK(pthread_setschedprio(t, 3) == EINVAL, "setschedprio 3 under SCHED_BATCH: EINVAL");
	pol = policy_of(pthread_self(), &prio);
	CHECK(pol == SCHED_OTHER, "main's own policy unchanged");

	cpu_set_t all, one;
	CHECK(pthread_getaffinity_np(pthread_self(), sizeof all, &all) == 0 && CPU_COUNT(&all) >= 1,
	      "main's affinity");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	CHECK(pthread_setaffinity_np(t, sizeof one, &one) == 0, "setaffinity {0} on another thread");
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar); /* it looked, made a child, went idle */
	CHECK(pthread_setschedparam(t, SCHED_IDLE, &sp) == 0 && policy_of(t, &prio) == SCHED_IDLE, "SCHED_IDLE");
	cpu_set_t got;
	CHECK(pthread_getaffinity_np(pthread_self(), sizeof got, &got) == 0 && CPU_EQUAL(&got, &all),
	      "main's affinity unchanged");
	CHECK(pthread_getaffinity_np(t, 4, &got) == EINVAL, "getaffinity with 4 bytes: EINVAL");
	cpu_set_t none;
	CPU_ZERO(&none);
	CHECK(pthread_setaffinity_np(t, sizeof none, &none) == EINVAL, "setaffinity to no CPU: EINVAL");
	cpu_set_t far;
	CPU_ZERO(&far);
	CPU_SET(1000, &far);
	CHECK(pthread_setaffinity_np(t, sizeof far, &far) == EINVAL, "setaffinity to CPU 1000 only: EINVAL");
	cpu_set_t wide = all;
	CPU_SET(1000, &wide);
	CHECK(pthread_setaffinity_np(t, sizeof wide, &wide) == 0 && pthread_getaffinity_np(t, sizeof got, &got) == 0 &&
		      CPU_EQUAL(&got, &all),
	      "setaffinity keeps only CPUs that exist");
	pthread_attr_t attr;
	pthread_getattr_np(t, &attr);
	int apol = -1;
	pthread_attr_getschedpolicy(&attr, &apol);
	cpu_set_t aset;
	pthread_attr_getaffinity_np(&attr, sizeof aset, &aset);
	CHECK(apol == SCHED_IDLE && CPU_EQUAL(&aset, &all), "pthread_getattr_np reports policy and affinity");
	pthread_attr_destroy(&attr);
	pthread_barrier_wait(&bar);
	pthread_join(t, NULL);

	/* Attributes at creation. */
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof one, &one);
	pthread_create(&t, &attr, affinity_child, &got);
	pthread_join(t, NULL);
	CHECK(CPU_EQUAL(&got, &one), "pthread_attr_setaffinity_np applies to the new thread");
	pthread_attr_destroy(&attr);
	CHECK(sched_setaffinity(0, sizeof one, &one) == 0, "sched_setaffinity(0) {0} in main");
	pthread_create(&t, NULL, affinity_child, &got);
	pthread_join(t, NULL);
	CHECK(CPU_EQUAL(&got, &one), "a new thread inherits its creator's affinity");
	sched_setaffinity(0, sizeof all, &all);

	/* main under SCHED_BATCH creates with an explicit SCHED_OTHER. */
	CHECK(pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp) == 0, "main takes SCHED_BATCH");
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
	int cpol = -1;
	CHECK(pthread_create(&t, &attr, child_policy, &cpol) == 0, "create with explicit SCHED_OTHER");
	pthread_join(t, NULL);
	CHECK(cpol == SCHED_OTHER, "the explicit policy applies, not the creator's");
	pthread_attr_destroy(&attr);
	pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);

	/* An exited, not yet joined thread: its TID is gone. */
	pthread_create(&t, NULL, child_policy, &cpol);
	while (pthread_getschedparam(t, &pol, &sp) == 0)
		sched_yield();
	CHECK(pthread_setschedparam(t, SCHED_OTHER, &sp) == ESRCH, "setschedparam of an exited thread: ESRCH");
	CHECK(pthread_setschedprio(t, 0) == ESRCH, "setschedprio of an exited thread: ESRCH");
	CHECK(pthread_kill(t, 0) == 0, "pthread_kill of an exited, unjoined thread: 0 (glibc 2.34 on)");
	pthread_join(t, NULL);

	int attr_ok = 0;
	pthread_create(&t, NULL, attr_calls, &attr_ok);
	pthread_join(t, NULL);
	CHECK(attr_ok, "sched_setattr/sched_getattr agree with sched_getscheduler");
	return failures != 0;
}
