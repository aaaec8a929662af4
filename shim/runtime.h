/* The G/M/P runtime.  Read this next to Go's runtime/runtime2.go and
 * proc.go: the names and the algorithms are theirs, adapted to threads that
 * are real glibc threads as far as libc can tell (see compat/tls.c).
 *
 *   G  a POSIX thread of the program: a stack, a glibc TCB with its static
 *      TLS, and a saved context.  pthread_t is the address of its TCB.
 *   M  an OS thread (made with the real pthread_create) that runs Gs.  Its
 *      scheduler code runs on the M's own stack ("g0"), an aligned region
 *      whose base holds the struct m, so g0 code finds its M from rsp and
 *      never reads TLS: the FS base on g0 still belongs to the last G.
 *   P  the right to run Gs; there are GOMAXPROCS of them, each with a
 *      lock-free run queue.  An M needs a P to run a G. */
#ifndef GMP_RUNTIME_H
#define GMP_RUNTIME_H

#include <resolv.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "arch/x86_64/arch.h"
#include "counters.h"
#include "debug.h"
#include "lock.h"
#include "sanitizer.h"
#include "timer.h"

/* G statuses (Go's _Gidle, _Grunnable, ...).  Transitions go through
 * casgstatus, which throws on an unexpected old status. */
enum gstatus {
	G_IDLE = 0,     /* allocated, not yet started */
	G_RUNNABLE = 1, /* on a run queue */
	G_RUNNING = 2,  /* owns an M and a P */
	G_SYSCALL = 3,  /* in a blocking call the shim could not park */
	G_WAITING = 4,  /* parked: a wait queue or a timer will ready it */
	G_DEAD = 5,     /* exited; on a free list or waiting to be joined */
};

/* Why a G is parked. */
enum waitreason {
	WAIT_NONE = 0,
	WAIT_MUTEX,
	WAIT_COND,
	WAIT_JOIN,
	WAIT_ONCE,
	WAIT_SLEEP,
	WAIT_FUTEX,
	WAIT_SEMA,
	WAIT_BARRIER,
	WAIT_RWLOCK,
	WAIT_IO_READ,   /* netpoller: fd not readable yet */
	WAIT_IO_WRITE,  /* netpoller: fd not writable yet */
	WAIT_SELECT,    /* netpoller: none of several fds ready (poll, select) */
};

/* Join state of a G, one word so detach, join and exit race safely. */
enum joinstate {
	JS_JOINABLE = 0,
	JS_DETACHED = 1,
	JS_JOINING = 2, /* a joiner is parked on &g->joinstate */
	JS_EXITED = 3,  /* exited, not yet joined: the G is kept for its result */
	JS_REAPED = 4,  /* joined (or detached and exited): back on a free list */
};

/* The siginfo of a process-directed signal forwarded to a thread
 * (sigtramp.c). */
struct gmp_fwdinfo {
	int code;
	int pid;
	unsigned uid;
	union sigval value;
};

/* An alternate signal stack; all zero: none (SS_DISABLE). */
struct gmp_altstack {
	void *sp;
	size_t size;
	int flags;
};

#define G_MAIN 0x1       /* the process's initial thread: never reused */
#define G_USERSTACK 0x2  /* runs on a stack from pthread_attr_setstack */
#define G_C11 0x4        /* made by thrd_create: its start routine returns int */
#define G_FOREIGN 0x8    /* stands in for a thread that is no G (foreign.c) */

#define GMP_KEY_1ST 32   /* pthread keys held inline, as NPTL does */
#define GMP_KEY_L2 32    /* second-level blocks of GMP_KEY_1ST keys */

struct gmp_keyslot {
	uintptr_t seq;
	void *value;
};

/* The TIDs gmp_newtid gives Gs start here, above PID_MAX_LIMIT (2^22):
 * no real thread's TID is ever this large. */
#define GMP_TID_BASE 0x400000

struct m;

struct g {
	uintptr_t sched_sp;       /* saved context while not running */
	struct m *m;              /* the M running it, while running */
	uint32_t status;          /* enum gstatus, atomic */
	uint32_t flags;
	uint64_t goid;
	void *tcb;                /* the glibc TCB; == pthread_t */
	int tid;                  /* the TID glibc sees in the TCB */
	struct g *schedlink;      /* run queue / free list link */
	struct g *regnext;        /* registry.c hash chain */

	/* Memory: [map_base, map_base+map_size) holds guard, stack, TLS, TCB
	 * and this struct (or only TLS/TCB/struct for a user stack). */
	void *map_base;
	size_t map_size;
	void *stack_lo;
	size_t stack_size;
	size_t guard_size;

	void *(*start_routine)(void *);
	void *arg;
	void *retval;
	uint32_t joinstate;       /* enum joinstate, atomic */

	/* Address-keyed wait queue membership (sema.c). */
	const void *waitaddr;
	struct g *waitlink;       /* next waiter on the same address */
	struct g *waittail;       /* last waiter (valid in the queue head) */
	struct g *waitnext;       /* next queue head in the same bucket */
	uint32_t ticket;          /* condition variable ticket */
	uint32_t *condlock;       /* the mutex word a condvar waiter relocks (wait morphing) */
	uint32_t waitbits;        /* futex bit set the G waits with */
	uint32_t waitreason;
	int wakeup;               /* why gopark returned: 0 woken, else ETIMEDOUT */
	bool rescued;             /* in G_SYSCALL by sysmon's doing, not its own */
	uintptr_t syscallpc, syscallsp, syscallbp; /* where it entered its system call (gdump.c) */
	uint32_t preempt;         /* ran past its slice: yield at the next chance */
	uint64_t sigmask;         /* the thread's signal mask (kernel sigset) */
	uint64_t sigpending;      /* signals sent to this thread, not yet raised */
	uint64_t sigwaitset;      /* in sigwait for these: they go to its M's kernel queue */
	uint64_t sigkraised;      /* ... and these were put there for it */
	bool sigrestart;          /* the handlers that interrupted a wait restart calls */
	uint32_t nhandled;        /* the program's handlers run on this thread so far */
	struct gmp_altstack altstack; /* sigaltstack of the thread */
	uint64_t fwdmask;         /* signals forwarded here whose siginfo is in fwd */
	struct gmp_fwdinfo fwd[64];
	uint32_t robustheld;      /* robust mutexes it holds (robust.c) */
	int64_t cputime;          /* CPU time (ns) while cpuclock.c accounts; atomic */
	uint32_t clockslot;       /* its pthread_getcpuclockid slot, 0: none */

	/* Cancellation and exit (cancel.c, compat/unwind_exit.c).  The
	 * cancelability state and the cancel request are glibc's own
	 * cancelhandling word in the TCB, which glibc's code reads too. */
	uint32_t cancelpoint;     /* depth of cancellation points it is inside */
	uint32_t cancelkick;      /* pthread_cancel ended the wait of the point it is in */
	bool exitset;             /* retval holds pthread_exit's value (else: cancelled) */
	void *entrybuf;           /* the bottom __pthread_unwind_buf_t (gmain's frame) */
	unsigned char unwind_exc[64] __attribute__((aligned(16))); /* the forced unwind's _Unwind_Exception */
	struct gmp_timer timer;   /* for timed parks */
	struct note fnote;        /* a foreign G's thread sleeps here while parked */

	/* Pthread keys. */
	struct gmp_keyslot specific_1st[GMP_KEY_1ST];
	struct gmp_keyslot *specific[GMP_KEY_L2];
	bool specific_used;

	char name[16];
	/* Scheduling policy, priority and CPU affinity: kept and reported,
	 * not acted upon, since Gs share their Ms (schedattr.c). */
	int sched_policy;
	int sched_priority;
	int inheritsched;         /* as given at creation, for pthread_getattr_np */
	cpu_set_t affinity;
	struct __res_state res;   /* per-thread resolver state, as NPTL's */

	/* Seeing inside (gdump.c, sanitizer.c). */
	uintptr_t createpc;       /* return address of its pthread_create call */
	uint64_t parentgoid;      /* the G that created it */
	int64_t waitsince;        /* when it last parked (ns, monotonic) */
	void *asan_fake;          /* ASan fake stack saved across a switch */
};

#define RUNQ_SIZE 256

/* P statuses (Go's _Pidle, _Prunning, _Psyscall).  A P in P_SYSCALL still
 * belongs to the M in the syscall (its oldp) until sysmon retakes it. */
enum pstatus { P_IDLE = 0, P_RUNNING = 1, P_SYSCALL = 2 };

struct p {
	int id;
	uint32_t status;          /* enum pstatus */
	struct m *m;
	struct p *link;           /* idle P list */
	uint32_t schedtick;       /* incremented on every non-inherited schedule */
	uint32_t syscalltick;     /* incremented on every entersyscall */

	/* Lock-free ring: the owner writes tail, thieves CAS head. */
	uint32_t runqhead;
	uint32_t runqtail;
	struct g *runq[RUNQ_SIZE];
	struct g *runnext;        /* runs next, inheriting the time slice */

	struct g *gfree;          /* free Gs of this P */
	int gfreecnt;

	struct ptimers timers;    /* timed parks of Gs that ran here (timer.c) */
	struct gmp_pcounters ctr; /* written by the owner only (counters.h) */
} __attribute__((aligned(64)));

/* Each M's g0 region is M_REGION_SIZE bytes aligned to its size:
 * [struct m][guard page][g0 stack ... NPTL TCB at the top].  256 KiB,
 * more where the static TLS is large (TSan's is 768 KiB): gmp_init sets it
 * once, before the first M. */
extern uintptr_t gmp_m_region_size;
#define M_REGION_SIZE gmp_m_region_size

struct m {
	int id;
	int tid;
	struct g *curg;           /* the G running on this M */
	struct p *p;              /* attached P */
	struct p *nextp;          /* P handed over by startm */
	struct p *oldp;           /* P left in P_SYSCALL by entersyscall */
	struct m *schedlink;      /* idle M list */
	struct m *alllink;        /* every M (sched.allm) */
	bool spinning;            /* looking for work, holding a P */
	struct note park;         /* idle Ms sleep here */
	uint32_t fastrand;
	void *curfs;              /* what the FS base points at now */
	void *owntcb;             /* the M's own TCB: used while idle */
	uintptr_t g0_sp;          /* g0's saved context while a G runs */

	/* Rescue from a blocking call the shim never saw (rescue.c). */
	uint32_t rescue;          /* sysmon asked this M to give up its P */
	long rescue_nr;           /* ... while blocked in this system call */
	int64_t preemptsent;      /* when a preemption request was sent; 0: none */
	uint64_t sigmask;         /* the OS thread's signal mask right now */
	struct gmp_altstack altstack; /* the OS thread's alternate stack right now */
	struct gmp_altstack gsignal;  /* its own, for handlers while it runs no G (gsigstack.c) */

	/* What g0 must do once the G that switched to it is saved (gopark). */
	void (*after_switch)(struct g *gp, void *arg);
	void *after_arg;

	bool gone;                /* lost in a fork: no thread behind it */
	void *dump_uc;            /* its interrupted context while a dump holds it */
	uint32_t dump_ack;        /* it stopped for a dump (gdump.c) */
	void *asan_fake;          /* ASan fake stack of g0 across a switch */
	int64_t cpumark;          /* its CPU time when curg switched in; 0: not counting */
};

struct sched {
	struct mutex lock;
	struct m *allm;           /* every M, newest first; never shrinks */
	struct m *midle;          /* idle Ms */
	int nmidle;
	int mcount;
	int gomaxprocs;
	struct p *pidle;          /* idle Ps */
	uint32_t npidle;          /* atomic */
	uint32_t nmspinning;      /* atomic */

	/* Global run queue. */
	struct g *runqhead, *runqtail;
	int32_t runqsize;

	/* Global free Gs. */
	struct mutex gflock;
	struct g *gfree;
	int ngfree;

	uint32_t sysmonwait;      /* sysmon sleeps on sysmonnote: every P idle */
	struct note sysmonnote;
	int64_t lastpoll;         /* last netpoll (ns), 0 while an M blocks in it; atomic */

	uint64_t goidgen;         /* atomic */
	int32_t ngs;              /* live Gs, atomic; the last to exit ends the process */
};

extern struct sched sched;
extern struct p *allp;
extern struct g gmp_main_g;
extern int gmp_initialized;
extern int gmp_starting; /* init.c: gmp_init is running */

/* The running G's identity: initial-exec TLS, so per G, one instruction. */
extern __thread struct g *gmp_curg_tls;

static inline struct g *getg(void)
{
	return gmp_curg_tls;
}

struct g *gmp_foreign_g(bool create);

/* The calling thread's G: its own, or its foreign G (foreign.c; NULL only
 * when that could not be mapped). */
static inline struct g *gmp_thisg(void)
{
	struct g *gp = getg();
	return gp ? gp : gmp_foreign_g(true);
}

/* The M of the g0 stack we are on; valid only on g0. */
static inline struct m *g0_getm(void)
{
	return (struct m *)(gmp_arch_sp() & ~(uintptr_t)(M_REGION_SIZE - 1));
}

static inline uint32_t fastrandn(struct m *mp, uint32_t n)
{
	/* xorshift32 */
	uint32_t x = mp->fastrand;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	mp->fastrand = x;
	return (uint32_t)(((uint64_t)x * n) >> 32);
}

int64_t gmp_nanotime(void);

/* fork.c: each module with locks or per-thread state takes part in fork:
 * before, it takes its locks; in the parent, it releases them; in the
 * child, it resets itself to a world with only the forking thread. */
enum gmp_fork_phase { FORK_PREPARE, FORK_PARENT, FORK_CHILD };
void gmp_fork_init(void);
void sched_fork(enum gmp_fork_phase phase);
void timers_fork(enum gmp_fork_phase phase);
void registry_fork(enum gmp_fork_phase phase);
void newm_fork(enum gmp_fork_phase phase);

/* thread.c */
struct gmp_threadattr {
	size_t stacksize;  /* with stackaddr: the size of the user's stack */
	size_t guardsize;
	void *stackaddr;   /* lowest address of a user stack, or NULL */
	bool detached;
	uintptr_t createpc;  /* return address of the pthread_create call */
	int inheritsched, sched_policy, sched_priority;
	bool c11;          /* thrd_create: the start routine returns int */
	bool has_affinity; /* pthread_attr_setaffinity_np; else the creator's */
	cpu_set_t affinity;
	bool has_sigmask;  /* pthread_attr_setsigmask_np; else the creator's */
	uint64_t sigmask;
};
int gmp_newthread(struct g **out, const struct gmp_threadattr *ta, void *(*start)(void *), void *arg);

/* cpuclock.c: CPU-time clocks per G. */
extern int gmp_cpuclock_on;
void gmp_cpuclock_in(struct m *mp);
void gmp_cpuclock_out(struct m *mp, struct g *gp);
void gmp_cpuclock_exit(struct g *gp);
int gmp_cpuclock_id(struct g *gp, clockid_t *clk);
bool gmp_cpuclock_ours(clockid_t clk);
int gmp_cpuclock_read(clockid_t clk, struct timespec *ts);

/* schedattr.c */
void gmp_schedattr_init_main(struct g *gp);
void gmp_schedattr_inherit(struct g *gp, const struct g *parent, const struct gmp_threadattr *ta);
int gmp_checksched(int policy, int prio);
int gmp_setsched(struct g *gp, int policy, int prio);
int gmp_setaffinity(struct g *gp, size_t size, const cpu_set_t *set);
int gmp_getaffinity(struct g *gp, size_t size, cpu_set_t *set);
struct g *gmp_pid_g(pid_t pid);

/* compat/realsym.c: libc's clock_gettime (the runtime's clock reads). */
extern int (*gmp_clock_gettime)(clockid_t, struct timespec *);

/* foreign.c: threads that are no G (made by a library through
 * dlsym(RTLD_NEXT, "pthread_create"), glibc's helper threads, an idle M
 * running a signal handler) get a proxy G of their own, flagged G_FOREIGN,
 * in no registry, with no M, no P and no stack of ours.  It parks by
 * blocking its own thread on fnote (sema.c); readying it wakes the note. */
struct g *gmp_foreign_g(bool create);
void gmp_foreign_ready(struct g *gp);
/* Looks up what freeing a foreign G at its thread's exit takes (at start,
 * while dlsym may still malloc safely). */
void gmp_foreign_init(void);
/* tcb (a pthread_t no G has) is an NPTL thread's, as far as can be told. */
bool gmp_foreign_tcb(const void *tcb);
/* The owner id the caller stores in a lock: the G's TID, or a foreign
 * thread's kernel TID. */
int gmp_self_tid(void);

/* init.c */
void gmp_init(void);
static inline void gmp_ensure_init(void)
{
	if (__builtin_expect(!gmp_initialized, 0))
		gmp_init();
}

/* proc.c */
void casgstatus(struct g *gp, uint32_t oldval, uint32_t newval);
void schedule(void) __attribute__((noreturn));
void gopark(void (*unlockf)(struct g *, void *), void *arg, enum waitreason reason);
void goready(struct g *gp);
void gosched(void);
void gosched_m(struct g *gp, void *arg);
bool gmp_nothing_else(struct p *pp);
void goexit(void) __attribute__((noreturn));
void newproc(struct g *gp);
void wakep(void);
void mstart_on_g0(struct m *mp);
void newm(struct p *pp, bool spinning);
struct m *allocm(void);
void gmp_procs_init(int nprocs);
bool gmp_start_runtime_thread(void *(*fn)(void *));
void injectglist(struct g *list);
/* Readies Gs parked on a list linked through schedlink: on mp's P, or
 * injected globally when there is no P to put them on (mp NULL: not on a
 * G, as sysmon). */
void gmp_ready_list(struct m *mp, struct g *list);
void mcall(void (*fn)(struct g *, void *), void *arg);
void startm(struct p *pp, bool spinning);
void acquirep(struct m *mp, struct p *pp);
struct p *pidleget(void);
void pidleput(struct p *pp);
void mput(struct m *mp);
bool stopm(struct m *mp, int64_t deadline);

/* syscall.c: a G about to block in the kernel keeps its P only until
 * sysmon retakes it (proc.go: entersyscall, exitsyscall, handoffp). */
bool entersyscall(void);
void exitsyscall(void);
void handoffp(struct p *pp);
/* A raw system call that may block, made between entersyscall and
 * exitsyscall.  Returns the kernel's result (-errno on failure). */
long gmp_blocking_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
long gmp_syscall_intr(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
#define gmp_blocking_syscall(n, a, b, c) gmp_blocking_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* The running G's P.  A G still in a syscall (a call nested in another,
 * or one the M was rescued from by sysmon) takes a P back first. */
static inline struct p *gmp_getp(void)
{
	struct g *gp = getg();
	if (__builtin_expect(__atomic_load_n(&gp->status, __ATOMIC_RELAXED) == G_SYSCALL, 0))
		exitsyscall();
	return gp->m->p;
}

/* netpoll.c */
int32_t gmp_netpoll_waiters(void);

/* rescue.c: what sysmon learned of an M that has not scheduled. */
enum probe {
	PROBE_UNKNOWN,  /* could not tell */
	PROBE_USER,     /* running in user mode */
	PROBE_RESCUED,  /* asleep in a restartable call: asked to let go of its P */
	PROBE_BLOCKED,  /* asleep in a call that cannot be rescued */
};
void gmp_rescue_fork(struct m *mp);
enum probe gmp_rescue_probe(struct p *pp);

/* preempt.c: the runtime's signal and what it carries. */
enum gmp_sigreq { SIGREQ_PREEMPT = 1, SIGREQ_RESCUE = 2, SIGREQ_DELIVER = 3, SIGREQ_IDLEMASK = 4, SIGREQ_DUMPSTOP = 5,
		  SIGREQ_CANCEL = 6 };
extern int gmp_preemptsig;        /* GMP_PREEMPTSIG, SIGURG by default */
extern int64_t gmp_timeslice_ns;  /* GMP_TIMESLICE; 0: no preemption */
extern bool gmp_asyncpreemptoff;  /* GMPDEBUG=asyncpreemptoff=1 */
void gmp_preempt_init(void);
void gmp_preempt_fork(void);
bool gmp_sigsend(struct m *mp, enum gmp_sigreq req);
void preemptone(struct p *pp);
struct g *gmp_signal_g(void *uc);
void gmp_preempt_yield(void);
void gmp_preempt_handler_chain(int sig, void *info, void *uc);
struct sigaction;
void gmp_preemptsig_action(const struct sigaction *act, struct sigaction *old);

/* A cooperative preemption point: an entry into the shim where the G holds
 * no runtime lock.  Yields if sysmon asked it to. */
static inline void gmp_preempt_point(void)
{
	struct g *gp = getg();
	if (__builtin_expect(gp != NULL && __atomic_load_n(&gp->preempt, __ATOMIC_RELAXED), 0))
		gmp_preempt_yield();
}

/* sysmon.c */
void gmp_sysmon_start(void);
void gmp_sysmon_wake(void);
void sysmon_fork(enum gmp_fork_phase phase);

/* runq.c */
bool runqempty(struct p *pp);
void runqput(struct p *pp, struct g *gp, bool next);
struct g *runqget(struct p *pp, bool *inherit);
struct g *runqsteal(struct p *pp, struct p *p2, bool stealrunnext);
int runqsize(struct p *pp);

/* globrunq.c: sched.lock must be held. */
void globrunqput(struct g *gp);
void globrunqputbatch(struct g *head, struct g *tail, int n);
struct g *globrunqget(struct p *pp, int max);

/* gfree.c */
void gfput(struct p *pp, struct g *gp);
struct g *gfget(struct p *pp, size_t stack_size, size_t guard_size);

/* stack.c */
struct g *malg(size_t stack_size, size_t guard_size, void *user_stack, size_t user_size);
size_t gmp_default_stacksize(void);
void gmp_guard_pages(void *addr, size_t len);
uintptr_t gmp_stack_top(struct g *gp);

/* registry.c: the set of live pthread_t values. */
void gmp_registry_add(struct g *gp);
void gmp_registry_del(struct g *gp);
struct g *gmp_registry_get(const void *tcb);
struct g *gmp_registry_live(const void *tcb);
void gmp_registry_lock(void);
void gmp_registry_unlock(void);
struct g *gmp_registry_find_locked(const void *tcb);
void gmp_registry_foreach(void (*fn)(struct g *, void *), void *arg);

/* registry.c: for a dump from a signal handler, which cannot take the
 * registry lock (the interrupted thread may hold it). */
void gmp_registry_foreach_unlocked(void (*fn)(struct g *, void *), void *arg);

/* insight: schedtrace.c, gdump.c, stats.c, sanitizer.c */
/* Every M (sched.allm, newest first; a fork child keeps only its own). */
#define gmp_allm (sched.allm)
void gmp_insight_m_new(struct m *mp);
void gmp_insight_init(void);
int gmp_glist_len(struct g *list);
void gmp_insight_fork(enum gmp_fork_phase phase);
const char *gmp_waitreason_string(uint32_t reason);
const char *gmp_gstatus_string(uint32_t status);
/* gdump.c: signals whose default action is the runtime's (SIGQUIT, the
 * fault signals, GMP_DUMP_SIGNAL).  interpose/signal.c: SIG_DFL from the
 * program becomes our action for the kernel (gmp_dump_default_action), and
 * our action read back is reported as SIG_DFL (gmp_dump_hide). */
bool gmp_dump_signal_owned(int sig);
bool gmp_dump_default_action(int sig, const struct sigaction *act, struct sigaction *k);
void gmp_dump_hide(struct sigaction *old);
/* An M asked to stop for a dump (SIGREQ_DUMPSTOP, from the runtime's
 * signal handler): publishes uc and waits until the dump is over. */
void gmp_dump_serve_stop(void *uc);

/* Monotonic time at the kernel tick's resolution (a few ms): enough to say
 * how long a G has waited, and a plain read of the vDSO data page, where a
 * precise clock_gettime measured ~0.6 us per park inside a G on the
 * development VM. */
static inline int64_t gmp_coarsetime(void)
{
	struct timespec ts;
	gmp_clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The bookkeeping of a park: when (for the dump) and how often (counters). */
static inline void gmp_note_park(struct g *gp, struct p *pp, uint32_t reason)
{
	gp->waitsince = gmp_coarsetime();
	pp->ctr.park[reason % GMP_NWAITREASON]++;
}

#endif
