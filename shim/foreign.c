/* Foreign threads: OS threads the shim did not make, calling its
 * synchronization functions.  jemalloc makes its background thread with
 * the pthread_create it finds through dlsym(RTLD_NEXT), glibc makes
 * SIGEV_THREAD timer and aio threads with its internal create, and an idle
 * M runs signal handlers on its own TCB.  Go meets the same problem with
 * threads that call into Go from C (needm, extra Ms); ours is simpler,
 * since a foreign thread never runs Gs: it has no P, and when it must
 * wait it blocks its own OS thread in the kernel.
 *
 * Each such thread gets a proxy G on first need: zeroed memory flagged
 * G_FOREIGN, holding what a waiter needs (wait-queue links, wake-up code,
 * ticket, bits, timer.waitaddr for timeouts), its pthread key slots, and
 * fnote, the note it sleeps on.  It is in no registry, has no M and no
 * stack of ours, so dumps, schedtrace and sysmon never see it; sema.c
 * parks it (foreign_park) and proc.c readies it (gmp_foreign_ready). */
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/realsym.h"
#include "compat/tls.h"
#include "foreign.h"
#include "keys.h"
#include "lock.h"
#include "runtime.h"
#include "sys.h"

static __thread struct g *foreign_tls;

/* A glibc key (the real pthread_key_create: a foreign thread is a real
 * NPTL thread, and glibc runs its key destructors when it exits) whose
 * destructor frees the thread's foreign G.  0 unset, 1 being made, 2 made,
 * 3 unavailable (then the G stays mapped until the process ends). */
static uint32_t exitkey_state;
static pthread_key_t exitkey;
static int (*real_setspecific)(pthread_key_t, const void *);

static void foreign_exit(void *arg)
{
	struct g *gp = arg;
	if (foreign_tls != gp)
		return;
	/* NPTL runs a thread's key destructors at its exit: those of the
	 * program's keys (ours, held in this G) run here as well. */
	gmp_keys_run_destructors(gp);
	foreign_tls = NULL;
	/* Nobody can still hold it: it is on no wait queue (it only leaves a
	 * park once dequeued), and a waker's last touch, notewakeup's
	 * futex wake, is harmless on unmapped memory. */
	munmap(gp, sizeof *gp);
}

static bool exitkey_ready(void)
{
	uint32_t s = __atomic_load_n(&exitkey_state, __ATOMIC_ACQUIRE);
	if (s == 0 && __atomic_compare_exchange_n(&exitkey_state, &s, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		int (*create)(pthread_key_t *, void (*)(void *)) = gmp_dlsym_next("pthread_key_create");
		real_setspecific = gmp_dlsym_next("pthread_setspecific");
		bool ok = create && real_setspecific && create(&exitkey, foreign_exit) == 0;
		__atomic_store_n(&exitkey_state, ok ? 2 : 3, __ATOMIC_RELEASE);
		return ok;
	}
	while ((s = __atomic_load_n(&exitkey_state, __ATOMIC_ACQUIRE)) == 1)
		gmp_syscall(SYS_sched_yield, 0, 0, 0);
	return s == 2;
}

void gmp_foreign_init(void)
{
	exitkey_ready();
}

struct g *gmp_foreign_g(bool create)
{
	struct g *gp = foreign_tls;
	if (gp != NULL || !create)
		return gp;
	/* Not malloc: TSan stores a key on a new thread before its malloc
	 * works there (__tsan_thread_start_func), and the program's malloc
	 * may be what is waiting (jemalloc's locks). */
	void *mem = mmap(NULL, sizeof *gp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return NULL;
	gp = mem;
	gp->flags = G_FOREIGN;
	gp->status = G_RUNNING;
	gp->tid = (int)gmp_syscall(SYS_gettid, 0, 0, 0);
	gp->timer.index = -1;
	gp->timer.gp = gp;
	foreign_tls = gp;
	if (exitkey_ready())
		real_setspecific(exitkey, gp);
	return gp;
}

void gmp_foreign_ready(struct g *gp)
{
	__atomic_store_n(&gp->status, G_RUNNING, __ATOMIC_RELAXED);
	/* The last touch: once woken, its thread may go on and exit. */
	notewakeup(&gp->fnote);
}

__thread bool gmp_fd_alien;
__thread bool gmp_other_process;

struct gmp_clone_start {
	int (*fn)(void *);
	void *arg;
	void *tcb;
	bool alien, process;
};

struct gmp_clone_start *gmp_foreign_clone(int (*fn)(void *), void *arg, int flags)
{
	struct gmp_clone_start *cs = malloc(sizeof *cs);
	if (cs == NULL)
		return NULL;
	*cs = (struct gmp_clone_start){ fn, arg, gmp_tls_standalone(0), !(flags & CLONE_FILES), !(flags & CLONE_THREAD) };
	return cs;
}

int gmp_foreign_clone_entry(void *start)
{
	struct gmp_clone_start *cs = start;
	*gmp_tls_tidp(cs->tcb) = (int)gmp_syscall(SYS_gettid, 0, 0, 0);
	gmp_arch_setfs(cs->tcb);
	gmp_fd_alien = cs->alien;
	gmp_other_process = cs->process;
	return cs->fn(cs->arg);
}

int gmp_foreign_tid(void)
{
	struct g *gp = foreign_tls;
	return gp ? gp->tid : (int)gmp_syscall(SYS_gettid, 0, 0, 0);
}

/* A thread the G registry does not know may be a foreign one, which
 * pthread_join and pthread_detach then leave to glibc.  Told apart by the
 * TID in its TCB: a G's (live or reaped: G memory is never unmapped) is one
 * of gmp_newtid's, above any real TID, or main's; an NPTL thread's is its
 * real TID, or 0 once it has exited.  Anything else is no thread at all,
 * as natively. */
bool gmp_foreign_tcb(const void *tcb)
{
	if (tcb == gmp_main_g.tcb || !gmp_tls_is_tcb(tcb))
		return false;
	int tid = __atomic_load_n(gmp_tls_tidp((void *)tcb), __ATOMIC_ACQUIRE);
	return tid >= 0 && tid < GMP_TID_BASE;
}
