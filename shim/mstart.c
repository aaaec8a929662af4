/* Making Ms.  Every M is a real NPTL thread so that glibc counts it, but it
 * runs on a region we map: [struct m][guard page][stack, NPTL TCB at top],
 * aligned to its size so that g0 code finds its M by masking rsp.
 *
 * Ms are created by the template thread (Go's templateThread), a plain
 * NPTL thread that never runs Gs: pthread_create reads the caller's TLS
 * (malloc's tcache for the DTV), and a scheduler on g0 has only a stale FS
 * base, possibly belonging to a G running elsewhere. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch.h"
#include "compat/debug.h"
#include "compat/realsym.h"
#include "compat/tls.h"
#include "fork.h"
#include "globrunq.h"
#include "gsignal.h"
#include "gsigstack.h"
#include "insight.h"
#include "lock.h"
#include "mstart.h"
#include "proc.h"
#include "robust.h"
#include "rtprio.h"
#include "runq.h"
#include "runtime.h"
#include "stack.h"
#include "sys.h"
#include "syscall.h"
#include "timer.h"

#define PAGE 4096

static struct mutex newmlock;
static struct m *newmhead;     /* Ms waiting for the template thread */
/* A runtime thread asked of it (gmp_start_runtime_thread_later): its body,
 * and what to call once made. */
static void *(*spawnbody)(void *);
static void (*spawndone)(bool);
static struct note newmwake;
/* The spawn gate: the runtime never makes a thread while the program
 * forks.  The program does not see the runtime's threads being made, and
 * natively it would not be cloning while it forks; under qemu-user the
 * overlap is fatal: the emulator's clone holds a lock of its own that the
 * fork child inherits held, and the child's first new thread (its template
 * thread) then waits for good.  SPAWNING: the template thread is making
 * threads; FORKING: a fork is under way, the template thread waits.  Not a
 * runtime lock, which is never held across a call into libc: each side
 * waits on the word in the kernel, from the shim's text (so sysmon never
 * takes a P from a fork that waits here). */
#define SPAWNING 1u
#define FORKING 2u
static uint32_t spawngate;

static void gate_wait(uint32_t seen)
{
	gmp_futex_wait_kernel(&spawngate, seen, -1);
}

/* Sets bit in the gate once no fork is under way. */
static void gate_enter(uint32_t bit)
{
	for (uint32_t s;;) {
		s = __atomic_load_n(&spawngate, __ATOMIC_ACQUIRE);
		if (s & FORKING)
			gate_wait(s);
		else if (__atomic_compare_exchange_n(&spawngate, &s, s | bit, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return;
	}
}

uintptr_t gmp_m_region_size = 256 * 1024;

/* The runtime's own OS threads (Ms, template, sysmon, schedtrace) are
 * NPTL threads.  Under ThreadSanitizer they must be made through its
 * pthread_create, which sets up the thread's state in its TLS before the
 * thread runs: TSan's malloc, signal handlers and other interceptors use
 * that state on any thread, and the template thread's own pthread_create
 * mallocs.  TSan's pthread_create calls "the next" one, which is ours:
 * gmp_creating_os_thread sends that call on to NPTL. */
__thread int gmp_creating_os_thread;
static int (*san_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

/* NPTL's new thread starts with the mask its creator had (start_thread
 * restores what pthread_create saved before it blocked everything for the
 * clone), and blocks the program's signals only once its body runs.
 * sysmon and the template thread, made from main as the runtime starts,
 * ran a moment with main's mask: a signal main blocked and sent to the
 * process right after (LTP fork/12-1) could land on one of them and end
 * the process with its default action (6 runs in 40 at two Ps).  So the
 * creator blocks them for the call. */
static int os_thread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	uint64_t saved = gmp_block_signals();
	int err;
	if (san_pthread_create == NULL) {
		err = gmp_real.pthread_create(t, attr, fn, arg);
	} else {
		gmp_creating_os_thread = 1;
		err = san_pthread_create(t, attr, fn, arg);
		gmp_creating_os_thread = 0;
	}
	gmp_restore_signals(saved);
	return err;
}

/* NPTL puts the static TLS and the TCB at the top of the stack it is
 * given; the g0 stack below them keeps at least 192 KiB (TSan also wants
 * TLS + 128 KiB and would otherwise enlarge the stack below the region). */
void gmp_mstart_init(void)
{
	while (gmp_m_region_size < 2 * PAGE + gmp_tls_reserve() + 192 * 1024)
		gmp_m_region_size *= 2;
	if (dlsym(RTLD_DEFAULT, "__tsan_init")) {
		void *f = dlsym(RTLD_DEFAULT, "pthread_create");
		Dl_info di;
		/* TSan after the shim: its interceptors would never run, and
		 * instrumented code crashes on thread state never set up. */
		if (f == NULL || !dladdr(f, &di) || di.dli_fname == NULL || !strstr(di.dli_fname, "libtsan"))
			gmp_throw("the program uses ThreadSanitizer, whose runtime must come before libgmpshim.so: "
				  "run it with gmprun, or LD_PRELOAD=\"libtsan.so.2 /path/to/libgmpshim.so\"");
		san_pthread_create = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))f;
	}
}

struct m *allocm(void)
{
	size_t sz = M_REGION_SIZE;
	char *raw = mmap(NULL, 2 * sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		gmp_throw("allocm: cannot map an M region");
	uintptr_t base = ((uintptr_t)raw + sz - 1) & ~(uintptr_t)(sz - 1);
	if (base > (uintptr_t)raw)
		munmap(raw, base - (uintptr_t)raw);
	uintptr_t end = (uintptr_t)raw + 2 * sz;
	if (end > base + sz)
		munmap((void *)(base + sz), end - (base + sz));
	gmp_guard_pages((void *)(base + PAGE), PAGE);
	struct m *mp = (struct m *)base;
	memset(mp, 0, sizeof *mp);
	lock(&sched.lock);
	mp->id = sched.mcount++;
	mp->alllink = sched.allm;
	__atomic_store_n(&sched.allm, mp, __ATOMIC_RELEASE);
	unlock(&sched.lock);
	mp->fastrand = (uint32_t)(gmp_nanotime() ^ ((uintptr_t)mp >> 12)) | 1;
	gmp_gsignal_alloc(mp);
	gmp_insight_m_new(mp);
	return mp;
}

static void *mstart(void *arg)
{
	struct m *mp = arg;
	mp->tid = (int)gmp_syscall(SYS_gettid, 0, 0, 0);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&mp->sigmask, 8, 0, 0);
	mp->owntcb = gmp_arch_tp();
	mp->curfs = mp->owntcb;
	gmp_gsignal_install(mp);
	gmp_rt_kernel_mstart();
	mstart_on_g0(mp);
	return NULL;
}

/* An M whose thread could not be made, kept for the next newm: the
 * kernel refuses threads when the program has lowered RLIMIT_NPROC (haproxy
 * sets it to 0 once it runs, so that nothing can fork), or when memory or
 * pids run out.  Under the template thread's newmlock. */
static struct m *unspawned;
static uint32_t spawnfailing; /* the last thread asked for could not be made */

/* The thread for mp could not be made: its P goes back (its queued Gs to
 * the global queue, for the Ms there are), the runtime runs on with the Ms
 * it has, and mp waits for the next newm. */
static void spawn_failed(struct m *mp, int err)
{
	gmp_unsupported(err == EAGAIN ? "no OS thread for a new M (RLIMIT_NPROC, or the kernel's limits): "
					"runs on the Ms it has"
				      : "no OS thread for a new M: runs on the Ms it has");
	struct p *pp = mp->nextp;
	mp->nextp = NULL;
	if (pp) {
		lock(&sched.lock);
		bool inherit;
		struct g *gp;
		while ((gp = runqget(pp, &inherit)))
			globrunqput(gp);
		pidleput(pp);
		unlock(&sched.lock);
	}
	/* Ms waiting in the program's own calls could be all there is. */
	gmp_kernelwait_recall();
	if (mp->spinning) {
		mp->spinning = false;
		__atomic_sub_fetch(&sched.nmspinning, 1, __ATOMIC_ACQ_REL);
	}
	lock(&newmlock);
	if (unspawned == NULL)
		unspawned = mp;
	else
		mp->gone = true; /* one kept is enough; this region stays unused */
	unlock(&newmlock);
}

static void spawn(struct m *mp)
{
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	uintptr_t lo = (uintptr_t)mp + 2 * PAGE;
	pthread_attr_setstack(&attr, (void *)lo, M_REGION_SIZE - 2 * PAGE);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	int err = os_thread_create(&t, &attr, mstart, mp);
	pthread_attr_destroy(&attr);
	__atomic_store_n(&spawnfailing, err != 0, __ATOMIC_RELAXED);
	if (err != 0)
		spawn_failed(mp, err);
}

static void wake_template(void)
{
	/* Unlike notewakeup, tolerate a wake-up the template thread has not
	 * consumed yet: it clears the note before it takes the list. */
	if (__atomic_exchange_n(&newmwake.key, 1, __ATOMIC_ACQ_REL) == 2)
		gmp_futex_wake_kernel(&newmwake.key, 1);
}

void newm(struct p *pp, bool spinning)
{
	lock(&newmlock);
	struct m *mp = unspawned;
	unspawned = NULL;
	unlock(&newmlock);
	if (mp == NULL)
		mp = allocm();
	mp->nextp = pp;
	mp->spinning = spinning;
	lock(&newmlock);
	mp->schedlink = newmhead;
	newmhead = mp;
	unlock(&newmlock);
	wake_template();
}

bool gmp_newm_failing(void)
{
	return __atomic_load_n(&spawnfailing, __ATOMIC_RELAXED) != 0;
}

bool gmp_start_runtime_thread_later(void *(*fn)(void *), void (*done)(bool))
{
	lock(&newmlock);
	bool free = spawndone == NULL;
	if (free) {
		spawndone = done;
		spawnbody = fn;
	}
	unlock(&newmlock);
	if (free)
		wake_template();
	return free;
}

static void *templatethread(void *arg)
{
	gmp_block_signals();
	/* It lives as long as the process: the kernel walks its robust list
	 * when the process dies (robust.c). */
	gmp_robust_register();
	for (;;) {
		notesleep(&newmwake);
		noteclear(&newmwake);
		lock(&newmlock);
		struct m *list = newmhead;
		newmhead = NULL;
		void (*done)(bool) = spawndone;
		void *(*body)(void *) = spawnbody;
		spawndone = NULL;
		unlock(&newmlock);
		gate_enter(SPAWNING);
		while (list) {
			struct m *mp = list;
			list = mp->schedlink;
			mp->schedlink = NULL;
			spawn(mp);
		}
		if (done)
			done(gmp_start_runtime_thread(body));
		if (__atomic_and_fetch(&spawngate, ~SPAWNING, __ATOMIC_ACQ_REL) & FORKING)
			gmp_futex_wake_kernel(&spawngate, 1);
	}
	return NULL;
}

/* A thread of the runtime's own (template, sysmon, schedtrace): an NPTL
 * thread with a small stack, made by the real pthread_create. */
bool gmp_start_runtime_thread(void *(*fn)(void *))
{
	pthread_t t;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024 + gmp_tls_reserve()); /* NPTL takes the TLS from it */
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int err = os_thread_create(&t, &attr, fn, NULL);
	pthread_attr_destroy(&attr);
	return err == 0;
}

void gmp_start_templatethread(void)
{
	if (!gmp_start_runtime_thread(templatethread))
		gmp_throw("cannot start the template thread");
}

void spawn_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		/* Forks of several threads at once: each waits its turn. */
		gate_enter(FORKING);
		for (uint32_t s; (s = __atomic_load_n(&spawngate, __ATOMIC_ACQUIRE)) & SPAWNING;)
			gate_wait(s);
	} else if (phase == FORK_PARENT) {
		__atomic_and_fetch(&spawngate, ~FORKING, __ATOMIC_ACQ_REL);
		gmp_futex_wake_kernel(&spawngate, INT32_MAX);
	} else {
		spawngate = 0;
	}
}

void newm_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_PREPARE) {
		lock(&newmlock);
	} else if (phase == FORK_PARENT) {
		unlock(&newmlock);
	} else {
		/* Pending Ms were never started, and the template thread is gone. */
		newmlock = (struct mutex){ 0 };
		newmhead = NULL;
		spawndone = NULL;
		newmwake = (struct note){ 0 };
		/* Started again when needed (gmp_fork_helpers). */
	}
}
