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

#include "counters.h"
#include "lock.h"
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

struct gmp_sigq;

/* An alternate signal stack (flags: sigaltstack's); all zero: none
 * (SS_DISABLE). */
struct gmp_altstack {
	void *sp;
	size_t size;
	int flags;
};

#define G_MAIN 0x1       /* the process's initial thread: never reused */
#define G_USERSTACK 0x2  /* runs on a stack from pthread_attr_setstack */
#define G_C11 0x4        /* made by thrd_create: its start routine returns int */
#define G_FOREIGN 0x8    /* stands in for a thread that is no G (foreign.c) */
#define G_COLD 0x10      /* free, its stack's pages given back to the kernel (gfree.c) */

/* Why a G is locked to its M: kernel state that belongs to the thread
 * that made it (proc.c, gmp_lockosthread). */
#define GLOCK_TRACER 0x1 /* a ptrace tracer */
#define GLOCK_HOP 0x2    /* moved onto its fork M for a fork or a ptrace request (gmp_forkm_hop) */

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
	struct g *regnext;        /* registry.c hash chains, by TCB */
	struct g *tidnext;        /* and by TID */
	struct m *lockedm;        /* the M it alone runs on, while locked (proc.c) */
	uint32_t lockreasons;     /* GLOCK_*: why it is locked; 0: it is not */
	uint32_t nchildren;       /* processes it forked and has not yet waited for */
	struct m *forkm;          /* the M that forked them, kept for it (proc.c, gmp_forkm_hop) */
	/* How long it held its P when a poll readied it (ns, the last two
	 * times averaged; 0: never timed): proc.c, injectglist_p. */
	int64_t pollheld;

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
	struct g *waitprev;       /* previous one; NULL: the queue head */
	struct g *waittail;       /* last waiter (valid in the queue head) */
	struct g *waitnext;       /* next queue head in the same chain of the bucket (waitq.c) */
	struct g **waitpprev;     /* the link that points at this head */
	uint32_t ticket;          /* condition variable ticket */
	uint32_t *condlock;       /* the mutex word a condvar waiter relocks (wait morphing) */
	uint32_t waitbits;        /* futex bit set the G waits with; 0: a PI lock waiter (futex_pi.c) */
	const void *pitarget;     /* FUTEX_WAIT_REQUEUE_PI: the PI word it may be moved to */
	void *rawrobust;          /* robust list head set through syscall(SYS_set_robust_list) */
	size_t rawrobustlen;
	int *cleartid;            /* set through syscall(SYS_set_tid_address), */
	bool cleartidset;         /* ... if this is set (else the TCB's TID, as NPTL's clone) */
	uint32_t waitreason;
	int wakeup;               /* why gopark returned: 0 woken, else ETIMEDOUT */
	bool rescued;             /* in G_SYSCALL by sysmon's doing, not its own */
	uint32_t shimhandlers;    /* the program's handlers running on top of the shim's code */
	uint32_t inhandler;       /* the program's handlers running on this thread */
	uintptr_t syscallpc, syscallsp, syscallbp; /* where it entered its system call (gdump.c) */
	uint32_t preempt;         /* ran past its slice: yield at the next chance */
	uint32_t calls;           /* preemption points passed (preempt.h); sysmon reads it */
	uint32_t callsseen;       /* sysmon's: calls at its last preemption */
	uint32_t slicegrow;       /* sysmon's: its slice doubled this often (sysmon.c, g_slice) */
	uint32_t spinwait;        /* its preemptions in a row that found it at a spin-wait hint */
	bool woke;                /* readied from a wait while no P was idle, not run since (sysmon.c) */
	uint32_t preemptoff;      /* inside ld.so's loader, which holds its lock across the program's
	                           * constructors: not asynchronously preempted there (preempt.h), */
	int64_t preemptoffsince;  /* for two slices from the first request refused there */
	uint64_t sigmask;         /* the thread's signal mask (kernel sigset) */
	uint64_t sighmask;        /* ... and, switched out inside a handler, what that handler blocks */
	uint64_t sigpending;      /* signals sent to this thread, not yet raised */
	uint64_t sigwaitset;      /* in sigwait for these: they go to its M's kernel queue */
	uint64_t sigkraised;      /* ... and these were put there for it */
	bool sigrestart;          /* the handlers run in this blocking call so far restart it */
	bool sigmasked;           /* in a call that sets its own mask (sigsuspend, ppoll, ...) */
	bool sighold;             /* entering or leaving a system call: handlers wait (gsignal.h) */
	uint64_t sigraised;       /* raised on its M by deliver, not yet landed (sigtramp.c) */
	uint32_t sigretry;        /* left pending over the runtime's code: sysmon asks again */
	bool sigcall;             /* in gmp_syscall_intr's call number sigcallnr, which the kernel */
	long sigcallnr;           /* ends for a handler without SA_RESTART (gsignal.c) */
	uint32_t nhandled;        /* the program's handlers run on this thread so far */
	uint32_t callmark;        /* nhandled as its blocking call began, or a wait of it last said EINTR */
	struct g *sigintrlink;    /* on sysmon's list of Gs whose wait a handler asked to interrupt, */
	uint32_t sigintrqueued;   /* ... while this is 1 (sigwake.c) */
	struct gmp_altstack altstack; /* sigaltstack of the thread (gsigstack.c) */
	uint64_t fwdmask;         /* signals forwarded here whose siginfo is in fwd */
	uint64_t sigfromproc;     /* of sigpending, the process-directed ones (gmp_sig_forward) */
	uint32_t fwdpins;         /* gmp_sig_forward calls on it under way */
	uint32_t sigqlock;        /* real-time signals sent after the pending one (gsigq.c): */
	struct gmp_sigq *sigq;    /* ... here, made when first needed */
	uint32_t robustheld;      /* robust mutexes it holds (robust.c) */
	int64_t cputime;          /* CPU time (ns) while cpuclock.c accounts; atomic */
	struct m *cpum;           /* ... plus cpuwall ns run in epoch cpuepoch of cpum, */
	uint64_t cpuepoch;        /*     at that epoch's rate once it is known */
	int64_t cpuwall;
	int64_t cpuseen;          /* the most its clock has read: it never goes back */
	uint32_t clockslot;       /* its pthread_getcpuclockid slot, 0: none */

	/* Cancellation and exit (cancel.c, compat/unwind_exit.c).  The
	 * cancelability state and the cancel request are glibc's own
	 * cancelhandling word in the TCB, which glibc's code reads too. */
	uint32_t cancelpoint;     /* depth of cancellation points it is inside */
	uint32_t cancelkick;      /* pthread_cancel ended the wait of the point it is in */
	bool exitset;             /* retval holds pthread_exit's value (else: cancelled) */
	void *entrybuf;           /* the bottom __pthread_unwind_buf_t (gmain's frame) */
	struct gmp_timer timer;   /* for timed parks */

	/* Scheduling policy and priority (schedattr.c), and what the
	 * scheduler acts on (rtprio.c): rtprio is the realtime priority it
	 * runs at, 0 for SCHED_OTHER/BATCH/IDLE, else the larger of its own
	 * and the boosts of the PI/PP mutexes it holds.  The CPU affinity is
	 * kept and reported only: Gs share their Ms. */
	int sched_policy;
	int sched_priority;
	int rtprio;               /* written by its own G or under sched.lock (rtprio.c) */
	int piboost;              /* highest waiter's rtprio on a PI mutex it holds */
	int ppboost;              /* highest ceiling of the PP mutexes it holds */
	uint32_t piheld;          /* PI mutexes it holds */
	bool onrtq;               /* queued on sched.rtrunq (sched.lock) */
	int inheritsched;         /* as given at creation, for pthread_getattr_np */
	cpu_set_t affinity;

	/* Seeing inside (gdump.c, sanitizer.c). */
	uintptr_t createpc;       /* return address of its pthread_create call */
	uint64_t parentgoid;      /* the G that created it */
	int64_t waitsince;        /* when it last parked (ns, monotonic) */
	void *asan_fake;          /* ASan fake stack saved across a switch */
	bool specific_used;       /* a key of it holds a value (keys.c) */
	bool specific_written;    /* ... or held one: its slots need clearing */

	/* Cold: what a thread touches only when it uses it (signals forwarded
	 * to it, pthread_exit, keys, a name, the resolver, a foreign thread's
	 * note).  stack.c puts these on a page above the hot fields, which a
	 * thread that never uses them leaves untouched (docs/design.md, A
	 * million threads: memory); a fresh G is zero, and a reused one clears
	 * them only where a thread wrote. */
	struct gmp_fwdinfo fwd[64] __attribute__((aligned(64)));
	unsigned char unwind_exc[64] __attribute__((aligned(16))); /* the forced unwind's _Unwind_Exception */
	struct note fnote;        /* a foreign G's thread sleeps here while parked */
	/* Pthread keys. */
	struct gmp_keyslot specific_1st[GMP_KEY_1ST];
	struct gmp_keyslot *specific[GMP_KEY_L2];
	char name[16];
	struct __res_state res;   /* per-thread resolver state, as NPTL's */
};

/* The fields from fwd on are cold (above). */
#define GMP_G_HOT_SIZE offsetof(struct g, fwd)

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
	/* gmp_nanotime() when the current slice began, if a G was queued
	 * here then; else 0 (sysmon dates it from its own look).  Written
	 * before schedtick, by the owner. */
	int64_t slicewhen;

	/* Lock-free ring: the owner writes tail, thieves CAS head. */
	uint32_t runqhead;
	uint32_t runqtail;
	struct g *runq[RUNQ_SIZE];
	struct g *runnext;        /* runs next, inheriting the time slice */

	struct g *gfree;          /* free Gs of this P */
	int gfreecnt;

	struct ptimers timers;    /* timed parks of Gs that ran here (timer.c) */
	struct gmp_pcounters ctr; /* written by the owner only (counters.h) */
	/* Gs readied here from a wait while no P was idle, and such Gs run
	 * here: sysmon's wake-up preemption counts those still queued.
	 * Written by the owner only. */
	uint32_t wokeput, wokeget;
	/* When an M is woken for the Gs a poll readied that were kept here
	 * for this P's M (proc.c, injectglist_p), if it has not reached them
	 * by then (0: none kept; sysmon reads and clears it too). */
	int64_t wakedue;
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
	struct g *lockedg;        /* the only G it runs, while that G is locked to it */
	bool lockedready;         /* lockedg is runnable and this M holds a P for it */
	struct g *keptfor;        /* the G whose children's parent it is: it runs no other G */
	uint32_t keptsleep;       /* 1: asleep without a G while kept (m_kept_sleep) */
	struct note park;         /* idle Ms sleep here */
	uint32_t fastrand;
	void *curfs;              /* what the FS base points at now */
	void *owntcb;             /* the M's own TCB: used while idle */
	uintptr_t g0_sp;          /* g0's saved context while a G runs */
	int64_t polledwhen;       /* the G a poll readied began here (0: not timed) */

	/* Rescue from a blocking call the shim never saw (rescue.c). */
	uint32_t pstolen;         /* enum pstolen: sysmon is taking, or took, p */
	uintptr_t stolenpc, stolensp; /* where the call it slept in was made */
	int64_t rescuelook;       /* sysmon's last look at it running without a P */
	int64_t lookwall, lookcpu; /* sysmon's last look at its P: when, and its CPU time then */
	int64_t proclook;         /* sysmon's last /proc read of its state */
	bool userlook;            /* that read found it running */
	uint32_t kwait;           /* 1: in a kernel wait (gmp_kernelwait_begin), 2: asked back */
	int64_t preemptsent;      /* when a preemption request was sent; 0: none */
	bool freshslice;          /* its G was preempted: the next one gets a slice of its own */
	uint64_t sigmask;         /* the OS thread's signal mask right now */
	bool idlemasking;         /* in gmp_sigmask_idle: its handler leaves the mask alone */
	bool idlemaskredo;        /* ... and asks it to look again */
	uint32_t g0tramps;        /* trampolines running on g0 without a G (gmp_sigmask_tramp_enter) */
	struct gmp_altstack gsignal;  /* its own signal stack, the kernel's only one (gsigstack.c) */

	/* What g0 must do once the G that switched to it is saved (gopark). */
	void (*after_switch)(struct g *gp, void *arg);
	void *after_arg;

	bool gone;                /* lost in a fork: no thread behind it */
	void *dump_uc;            /* its interrupted context while a dump holds it */
	uint32_t dump_ack;        /* it stopped for a dump (gdump.c) */
	void *asan_fake;          /* ASan fake stack of g0 across a switch */
	/* CPU accounting (cpuclock.c): an epoch of the M's CPU time, shared
	 * among the Gs it ran by their wall-clock run time. */
	int64_t cpuin;            /* wall when curg switched in; 0: not counting */
	int64_t cpuout;           /* wall when the last G switched out, if awake since; 0: none */
	int64_t cpustart;         /* the M's CPU time at the epoch's start; 0: none yet */
	int64_t wallstart;        /* wall at the epoch's start */
	int64_t wallpaused;       /* ... of which spent asleep (idle, long calls) */
	int64_t pausedsince;      /* asleep since; 0: awake */
	uint64_t epoch;           /* the open epoch's number */
	uint32_t rates[8];        /* CPU per wall ns (16.16) of epochs epoch-8..epoch-1 */
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

	/* Runnable realtime Gs, highest rtprio first, FIFO among equals
	 * (rtprio.c); guarded by lock like the global queue. */
	struct g *rtrunq;
	int32_t rtrunqsize;       /* atomic reads outside the lock */

	/* Guards the global free Gs (gfree.c). */
	struct mutex gflock;

	uint32_t wokeput;         /* as a P's wokeput, for Gs readied onto the global queue; under lock */
	uint32_t sysmonwait;      /* sysmon sleeps on sysmonnote: every P idle */
	uint32_t sysmonhurry;     /* enum sysmon_hurry: how long sysmon sleeps with a G running long (sysmon.c) */
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

/* Every M (sched.allm, newest first; a fork child keeps only its own). */
#define gmp_allm (sched.allm)

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

#endif
