/* Start-up (proc.go: schedinit, mstart for m0).  The initial thread
 * becomes the main G running on M0, which gets a g0 region of its own for
 * scheduling; from then on main is a G like any other and may migrate. */
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "compat/realsym.h"
#include "compat/tls.h"
#include "compat/unwind_exit.h"
#include "cpuclock.h"
#include "env.h"
#include "exit.h"
#include "foreign.h"
#include "fork.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "init.h"
#include "insight.h"
#include "mainstack.h"
#include "mstart.h"
#include "proc.h"
#include "registry.h"
#include "runtime.h"
#include "schedattr.h"
#include "sys.h"
#include "sysmon.h"
#include "thread.h"
#include "timer.h"

struct g gmp_main_g;
int gmp_initialized;
/* Start-up is under way.  It allocates (itself, and glibc for the threads
 * it creates), and a malloc that locks pthread mutexes (jemalloc) calls
 * back into us: those calls find the runtime not yet initialized and do
 * what they do before start-up, on the only thread there is. */
int gmp_starting;

void gmp_init(void)
{
	if (gmp_initialized || gmp_starting)
		return;
	gmp_starting = 1;
	gmp_arch_init();
	gmp_env_debug();
	gmp_env_preempt();
	int nprocs = gmp_env_maxprocs();
	gmp_realsym_init();
	gmp_foreign_init();
	gmp_tls_init(&gmp_curg_tls);
	gmp_unwind_setfinish(gmp_thread_exit);

	struct g *gp = &gmp_main_g;
	gp->flags = G_MAIN;
	gp->status = G_RUNNING;
	gp->goid = sched.goidgen = 1;
	gp->joinstate = JS_JOINABLE;
	gp->timer.index = -1;
	gp->tcb = gmp_tls_adopt_main(&gp->tid);
	gmp_curg_tls = gp;
	gmp_main_stack(&gp->stack_lo, &gp->stack_size);
	gmp_schedattr_init_main(gp);
	gmp_registry_add(gp);
	sched.ngs = 1;
	sched.lastpoll = gmp_nanotime();

	gmp_mstart_init();
	gmp_procs_init(nprocs);
	struct m *m0 = allocm();
	m0->tid = (int)gmp_syscall(SYS_gettid, 0, 0, 0);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&m0->sigmask, 8, 0, 0);
	gp->sigmask = m0->sigmask;
	gp->sigrestart = true;
	gmp_sigmask_count(gp->sigmask, 1);
	stack_t alt;
	if (gmp_syscall(SYS_sigaltstack, 0, &alt, 0) == 0 && !(alt.ss_flags & SS_DISABLE))
		gp->altstack = (struct gmp_altstack){ alt.ss_sp, alt.ss_size, alt.ss_flags & ~SS_ONSTACK };
	gmp_gsignal_install(m0);
	m0->owntcb = gmp_tls_standalone(gmp_newtid());
	m0->curfs = gp->tcb;
	m0->g0_sp = gmp_arch_new_context((uintptr_t)m0 + M_REGION_SIZE, gmp_m0_g0_entry, m0);
	gmp_bootstrap_m0(m0, gp);
	gmp_cpuclock_start(m0, gp);

	/* Also makes glibc multi-threaded (stdio locks, atomic refcounts)
	 * before a second G can exist. */
	gmp_start_templatethread();
	gmp_sysmon_start();
	gmp_fork_init();
	gmp_initialized = 1;
	gmp_starting = 0;
	/* Last: it dlopens libunwind, whose code calls interposed functions. */
	gmp_insight_init();
}

__attribute__((constructor)) static void gmp_ctor(void)
{
	gmp_init();
}
