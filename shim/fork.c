/* fork from a multi-threaded program.  The child has one OS thread, the
 * M that forked, running the G that called fork; every other G, M and
 * waiter is gone (POSIX: only the calling thread is replicated).  So that
 * the child does not inherit a runtime lock some other M held at the
 * moment of the fork, the prepare handler takes them all; the child then
 * rebuilds the scheduler around the forking G. */
#include <pthread.h>
#include <sys/syscall.h>

#include "cpuclock.h"
#include "fork.h"
#include "insight.h"
#include "lock.h"
#include "mapkind.h"
#include "mstart.h"
#include "netpoll.h"
#include "proc.h"
#include "procfs.h"
#include "registry.h"
#include "robust.h"
#include "rtfd.h"
#include "runtime.h"
#include "sigwake.h"
#include "sys.h"
#include "syscall.h"
#include "sysmon.h"
#include "timer.h"
#include "waitq.h"

static void for_all(enum gmp_fork_phase phase)
{
	/* No thread of the runtime's in the making across the fork; first,
	 * as the template thread takes runtime locks while it makes one. */
	spawn_fork(phase);
	/* In the runtime's lock order (proc.c).  Wake-ups deferred by signal handlers are dropped in the child;
	 * sysmon restarts last, on a rebuilt scheduler. */
	if (phase == FORK_CHILD)
		rtfd_fork(phase); /* the child's netpoller rebuilds its fds next */
	netpoll_fork(phase);
	if (phase != FORK_CHILD)
		rtfd_fork(phase); /* nests inside the netpoller's init lock */
	waitq_fork(phase);
	mapkind_fork(phase);
	robust_fork(phase);
	timers_fork(phase);
	cpuclock_fork(phase);
	sched_fork(phase);
	kernelwait_fork(phase);
	registry_fork(phase);
	newm_fork(phase);
	sigwake_fork(phase);
	if (phase == FORK_CHILD)
		procfs_fork(phase); /* before sysmon, its first user, restarts */
	sysmon_fork(phase);
	gmp_insight_fork(phase);
	if (phase != FORK_CHILD)
		procfs_fork(phase); /* last: a G holding other locks may look */
}

void gmp_fork_prepare(void)
{
	/* A G that has forked before forks from the same M, the parent of
	 * all its children (proc.c, gmp_forkm_hop).  The child has only this
	 * M: it must hold its P for real, not one sysmon took while it slept
	 * in a call the shim never saw. */
	if (getg()) {
		gmp_forkm_hop();
		gmp_getp();
	}
	for_all(FORK_PREPARE);
}

void gmp_fork_parent(void)
{
	for_all(FORK_PARENT);
	gmp_unlockosthread(GLOCK_HOP);
}

void gmp_fork_child(void)
{
	for_all(FORK_CHILD);
	/* The locks prepare took were reset, not unlocked: this G holds none. */
	gmp_locks_held = 0;
	struct g *gp = getg();
	gp->m->tid = (int)gmp_syscall(SYS_gettid, 0, 0, 0);
	/* The initial thread of the child, which the kernel named in the TCB
	 * (glibc's fork has it write the child's TID there): its gettid() is
	 * the child's process ID, as natively. */
	gp->tid = gp->m->tid;
	gmp_registry_add(gp);
	__atomic_store_n(&gmp_fork_helpers_pending, true, __ATOMIC_RELEASE);
}

bool gmp_fork_helpers_pending;

/* Starting them at the fork cost two thread creations in every child,
 * and the parent's wait for each child's exit their ends: fork, _exit and
 * waitpid took 450 us under the shim here, 292 us without them (natively
 * 135). */
void gmp_fork_helpers_start(void)
{
	if (!__atomic_exchange_n(&gmp_fork_helpers_pending, false, __ATOMIC_ACQ_REL))
		return;
	gmp_start_templatethread();
	gmp_sysmon_start();
}

void gmp_fork_init(void)
{
	pthread_atfork(gmp_fork_prepare, gmp_fork_parent, gmp_fork_child);
}
