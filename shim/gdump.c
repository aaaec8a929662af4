/* A dump of every G, Go's SIGQUIT traceback for threads that are Gs:
 *   - on SIGQUIT while the program has no SIGQUIT action of its own and did
 *     not inherit it ignored (then exit status 2, as a Go program does after
 *     its dump);
 *   - on GMP_DUMP_SIGNAL (a number or a name such as USR1), after which the
 *     program runs on;
 *   - on SIGSEGV, SIGBUS, SIGILL, SIGFPE or SIGABRT raised by shim code
 *     (the pc is in the shim's text), after which the signal's default
 *     action runs (core dump).  A fault anywhere else is not ours: the
 *     default action runs as if we had no handler.
 * Each G gets its id, state, wait reason and how long it has waited, the
 * pthread_create call that made it, and a libunwind backtrace: from its
 * saved context if it is not running, else from the context its M had
 * when the dump stopped it.
 *
 * Stopping the world: the dumping thread sends every other M a
 * SIGREQ_DUMPSTOP request through the runtime's own signal (preempt.c),
 * which no thread ever blocks.  Each M's handler publishes its interrupted
 * context and waits until the dump releases it, so no G can start running
 * (and rewrite the stack being unwound) meanwhile.  An M that does not
 * answer within 1 s (the signal blocked) is reported as not stopped.
 * For a dump the program survives, an M whose G is blocked in a system
 * call is left alone: a signal would turn some calls (poll, select,
 * epoll_wait) into EINTR the program never expected.
 *
 * Everything here is async-signal-safe: raw system calls, stack buffers,
 * no malloc, no stdio, no runtime lock (the G list is walked unlocked:
 * gmp_registry_foreach_unlocked).  libunwind runs with caching off; it
 * reads ELF files and calls dl_iterate_phdr, which takes the loader's
 * lock, so a dump taken while the interrupted thread was inside the
 * dynamic loader can hang: the one known hole. */
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "arch.h"
#include "fork.h"
#include "gdump.h"
#include "insight.h"
#include "outbuf.h"
#include "registry.h"
#include "rtsig.h"
#include "runtime.h"
#include "schedtrace.h"
#include "stack.h"
#include "sys.h"
#include "taskstate.h"
#include "timer.h"
#include "unwind.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

#define STOP_WAIT_NS 1000000000LL /* an M on a loaded machine may take a while to run */

static int pid;
static char dump_file[512];    /* GMP_DUMP_FILE, "" for stderr */
static int dumping;            /* tid of the thread dumping, 0 if none */
static uint32_t release_word;  /* set when the stopped Ms may go on */

/* A backtrace through a corrupt stack can make libunwind read unmapped
 * memory.  While one is taken, a fault on the dumping thread jumps back
 * here and the dump goes on with the next G.  (siglongjmp demangles with
 * the pointer guard, which every TCB we build copies from the initial
 * thread.) */
static sigjmp_buf recover_buf;
static int recover_tid;

#undef p_type /* resolv.h (through runtime.h) renames the field */

static long now_tid(void)
{
	return gmp_syscall(SYS_gettid, 0, 0, 0);
}

static struct m *m_by_tid(long tid)
{
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink)
		if (!mp->gone && mp->tid == tid)
			return mp;
	return NULL;
}

static uintptr_t uc_sp(void *uc)
{
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	return sp;
}

static uintptr_t uc_pc(void *uc)
{
	uintptr_t pc, sp;
	gmp_arch_signal_pc_sp(uc, &pc, &sp);
	return pc;
}

/* --- stopping the other Ms --- */

void gmp_dump_serve_stop(void *uc)
{
	/* Every runtime signal comes here (a preemption too): no dump, no
	 * stop, and no gettid per preemption to find out. */
	if (load_acq(&dumping) == 0)
		return;
	struct m *mp = m_by_tid(now_tid());
	/* Requests merge (preempt.c): serve a stop only if one is asked. */
	if (mp == NULL || load_acq(&mp->dump_ack) != 2)
		return;
	__atomic_store_n(&mp->dump_uc, uc, __ATOMIC_RELEASE);
	__atomic_store_n(&mp->dump_ack, 1, __ATOMIC_RELEASE);
	gmp_syscall(SYS_futex, &mp->dump_ack, FUTEX_WAKE_PRIVATE, 1);
	/* Held until the dump is over; a dump that ends the process never
	 * releases us, and the bound only guards against a lost wake-up (a
	 * dump of many thousand Gs takes seconds). */
	struct timespec ts = { 60, 0 };
	while (load_acq(&release_word) == 0)
		if (gmp_syscall6(SYS_futex, (long)&release_word, FUTEX_WAIT_PRIVATE, 0, (long)&ts, 0, 0) == -110)
			break;
	__atomic_store_n(&mp->dump_uc, NULL, __ATOMIC_RELEASE);
	/* A preemption request that arrived while ours was pending was merged
	 * into it: let sysmon send the next one. */
	__atomic_store_n(&mp->preemptsent, 0, __ATOMIC_RELEASE);
}

/* Whether a stop request can reach the thread unseen by the program: it
 * runs user code, or sleeps in a call the kernel restarts after the
 * runtime's handler (SA_RESTART), which then gives the dump every
 * register.  A signal landing in any other call (poll, epoll_wait,
 * nanosleep) would end it with EINTR. */
static bool stoppable(int tid)
{
	long nr, args[6];
	uintptr_t sp, pc;
	int k = gmp_task_syscall(tid, &nr, args, &sp, &pc);
	return k == 0 || (k == 1 && gmp_task_restartable(nr, args));
}

static void ask_stop(struct m *mp)
{
	/* 2: asked; the M's handler turns it into 1. */
	__atomic_store_n(&mp->dump_ack, 2, __ATOMIC_RELEASE);
	if (!gmp_sigsend(mp, SIGREQ_DUMPSTOP))
		__atomic_store_n(&mp->dump_ack, 0, __ATOMIC_RELEASE);
}

/* The runtime's signal is a standard one: a request sent while another
 * (a preemption) is still pending for that thread is merged into it and
 * lost, so an M that has not answered is asked again every 20 ms. */
static void await_stop(struct m *mp, int64_t deadline)
{
	while (load_acq(&mp->dump_ack) == 2) {
		int64_t left = deadline - gmp_nanotime();
		if (left <= 0)
			break;
		if (left > 20000000)
			left = 20000000;
		struct timespec ts = { 0, left };
		if (gmp_syscall6(SYS_futex, (long)&mp->dump_ack, FUTEX_WAIT_PRIVATE, 2, (long)&ts, 0, 0) ==
		    -110 /* ETIMEDOUT */)
			gmp_sigsend(mp, SIGREQ_DUMPSTOP);
	}
}

/* Asks every other M to stop, through the runtime's own signal (never
 * blocked, whatever the masks of the program's threads). */
static void stop_the_world(struct m *self, bool terminal)
{
	__atomic_store_n(&release_word, 0, __ATOMIC_RELEASE);
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink) {
		__atomic_store_n(&mp->dump_ack, 0, __ATOMIC_RELEASE);
		if (mp == self || mp->gone || mp->tid == 0)
			continue;
		if (!terminal) {
			struct g *gp = load_acq(&mp->curg);
			/* A G sysmon rescued runs user code again until its
			 * next call into the runtime: stopped like any other. */
			if (gp && ((load_acq(&gp->status) == G_SYSCALL && !gp->rescued) || !stoppable(mp->tid)))
				continue;
		}
		ask_stop(mp);
	}
	int64_t deadline = gmp_nanotime() + STOP_WAIT_NS;
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink)
		await_stop(mp, deadline);
}

static void start_the_world(void)
{
	__atomic_store_n(&release_word, 1, __ATOMIC_RELEASE);
	gmp_syscall(SYS_futex, &release_word, FUTEX_WAKE_PRIVATE, 0x7fffffff);
}

/* --- printing --- */

struct dumpctx {
	struct outbuf *ob;
	struct m *self;
	void *self_uc;
	int64_t now;
	long shown;                 /* Gs dumped so far */
	uint64_t after;             /* summarise only Gs with a larger id */
	struct gmp_gsummary rest;   /* those left out (GMP_DETAIL_MAX) */
};

/* The interrupted context that lies on gp's stack, if an M stopped there. */
static void *stopped_context(struct dumpctx *dc, struct g *gp)
{
	if (dc->self_uc && gmp_sp_in_g(gp, uc_sp(dc->self_uc)))
		return dc->self_uc;
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink) {
		void *uc = load_acq(&mp->dump_uc);
		if (uc && load_acq(&mp->dump_ack) == 1 && gmp_sp_in_g(gp, uc_sp(uc)))
			return uc;
	}
	return NULL;
}

/* A backtrace from uc (a stopped context), else from registers (pc
 * non-zero), else from the context saved at sp, abandoned if it faults. */
__attribute__((noinline)) static void guarded_backtrace(struct outbuf *ob, void *uc, uintptr_t sp,
							const uintptr_t *regs)
{
	if (sigsetjmp(recover_buf, 1) == 0) {
		__atomic_store_n(&recover_tid, (int)now_tid(), __ATOMIC_RELEASE);
		if (uc)
			gmp_backtrace_signal(ob, uc, "  ");
		else if (regs)
			gmp_backtrace_regs(ob, regs[0], regs[1], regs[2], "  ");
		else
			gmp_backtrace_saved(ob, sp, "  ");
	} else {
		ob_str(ob, "  ...(backtrace cut short: unreadable memory)\n");
	}
	__atomic_store_n(&recover_tid, 0, __ATOMIC_RELEASE);
}

/* A G whose M did not stop for the dump: a dump the program survives
 * leaves an M blocked in the kernel alone (a signal would end some calls
 * with EINTR), and an M may not answer in time.  Unwound from its user
 * registers at the call as the kernel reports them, else from where it
 * entered the call through the runtime; otherwise the dump says why not. */
static void unstopped(struct outbuf *ob, struct g *gp, struct m *mp, uint32_t st)
{
	long nr = -1;
	uintptr_t regs[3] = { 0, 0, 0 };
	int k = mp ? gmp_task_syscall(mp->tid, &nr, NULL, &regs[1], &regs[0]) : -ESRCH;
	if (k == 1 || k == 2) {
		ob_str(ob, k == 1 ? "  (blocked in the kernel, system call " : "  (stopped in the kernel");
		if (k == 1)
			ob_dec(ob, nr);
		ob_str(ob, ", pc=");
		ob_hex(ob, regs[0]);
		/* The kernel gives no frame pointer: a call the runtime made is
		 * unwound from where the G entered it, which has all the frames
		 * above; any other from the kernel's sp and pc alone. */
		if (st == G_SYSCALL && !gp->rescued && gp->syscallpc) {
			regs[0] = gp->syscallpc;
			regs[1] = gp->syscallsp;
			regs[2] = gp->syscallbp;
			ob_str(ob, "; unwound from where it entered the call");
		}
		ob_str(ob, ", not interrupted)\n");
		guarded_backtrace(ob, NULL, 0, regs);
		return;
	}
	/* Left alone as it was blocked in the kernel, and out of it now: it
	 * runs user code, which a stop request cannot disturb. */
	if (k == 0 && (st == G_RUNNING || gp->rescued) && load_acq(&mp->dump_ack) == 0) {
		ask_stop(mp);
		await_stop(mp, gmp_nanotime() + STOP_WAIT_NS / 10);
		void *uc = load_acq(&mp->dump_ack) == 1 ? load_acq(&mp->dump_uc) : NULL;
		if (uc && gmp_sp_in_g(gp, uc_sp(uc))) {
			guarded_backtrace(ob, uc, 0, NULL);
			return;
		}
	}
	if (k == 0 && !(st == G_SYSCALL && !gp->rescued && gp->syscallpc)) {
		ob_str(ob, "  (not unwound: running on m=");
		ob_dec(ob, mp->id);
		ob_str(ob, load_acq(&mp->dump_ack) == 2 ? ", which did not stop for the dump in time)\n"
						      : ", which could not be asked to stop)\n");
		return;
	}
	if (st == G_SYSCALL && gp->syscallpc) {
		regs[0] = gp->syscallpc;
		regs[1] = gp->syscallsp;
		regs[2] = gp->syscallbp;
		if (k == 0) {
			ob_str(ob, "  (in a system call, its M running (entering or leaving it)");
		} else {
			ob_str(ob, "  (in a system call, its M unreadable in /proc, errno ");
			ob_dec(ob, -k);
		}
		ob_str(ob, ": unwound from where it entered the call, pc=");
		ob_hex(ob, regs[0]);
		ob_str(ob, ")\n");
		guarded_backtrace(ob, NULL, 0, regs);
		return;
	}
	ob_str(ob, "  (not unwound: its M did not stop and is unreadable in /proc, errno ");
	ob_dec(ob, -k);
	ob_str(ob, ")\n");
}

static void dump_g(struct g *gp, void *arg)
{
	struct dumpctx *dc = arg;
	struct outbuf *ob = dc->ob;
	uint32_t st = load_acq(&gp->status);
	if (st == G_DEAD)
		return;
	struct m *mp = load_acq(&gp->m);
	ob_str(ob, "thread ");
	ob_udec(ob, gp->goid);
	ob_str(ob, " [");
	if (st == G_WAITING) {
		ob_str(ob, gmp_waitreason_string(load_acq(&gp->waitreason)));
		ob_str(ob, ", ");
		ob_dur(ob, gmp_coarsetime() - gp->waitsince);
	} else {
		ob_str(ob, gmp_gstatus_string(st));
		if ((st == G_RUNNING || st == G_SYSCALL) && mp) {
			ob_str(ob, ", m=");
			ob_dec(ob, mp->id);
			ob_str(ob, " tid=");
			ob_dec(ob, mp->tid);
		}
	}
	ob_str(ob, "]: pthread_t=");
	ob_hex(ob, (uintptr_t)gp->tcb);
	if (gp->name[0]) {
		char name[17];
		memcpy(name, gp->name, 16);
		name[16] = '\0';
		ob_str(ob, " name=");
		ob_str(ob, name);
	}
	if (gp->flags & G_MAIN)
		ob_str(ob, " (main)");
	ob_char(ob, '\n');
	/* A signal that never arrives (a stop-the-world collector's restart)
	 * shows here: pending on the G, and what holds it back. */
	uint64_t pend = load_acq(&gp->sigpending), mask = load_acq(&gp->sigmask);
	if (pend | mask) {
		ob_str(ob, "  signals: mask=");
		ob_hex(ob, mask);
		ob_str(ob, load_acq(&gp->sigmasked) ? " (a call's own)" : "");
		ob_str(ob, " pending=");
		ob_hex(ob, pend);
		ob_str(ob, load_acq(&gp->sigretry) ? " (waiting for the runtime's code to end)" : "");
		ob_str(ob, load_acq(&gp->sighold) ? " (held at a system call's edge)" : "");
		ob_char(ob, '\n');
	}

	void *uc = stopped_context(dc, gp);
	uintptr_t sp = load_acq(&gp->sched_sp);
	bool parked = st == G_WAITING || st == G_RUNNABLE || st == G_IDLE;
	if (!uc && parked && gmp_sp_in_g(gp, sp) && gmp_arch_context_pc(sp) == (uintptr_t)gmp_context_start) {
		/* The frame gmp_arch_new_context built: nothing ran yet. */
		ob_str(ob, "  (not started yet: will run ");
		gmp_symbolize(ob, (uintptr_t)gp->start_routine, true);
		ob_str(ob, ")\n");
	} else if (uc || (parked && gmp_sp_in_g(gp, sp))) {
		guarded_backtrace(ob, uc, sp, NULL);
	} else if (parked) {
		ob_str(ob, "  (not unwound: no saved context)\n");
	} else {
		unstopped(ob, gp, mp, st);
	}
	if (gp->createpc) {
		ob_str(ob, "created by thread ");
		ob_udec(ob, gp->parentgoid);
		ob_str(ob, " at ");
		gmp_symbolize(ob, gp->createpc, false);
		ob_char(ob, '\n');
	}
	ob_char(ob, '\n');
}

/* In creation order, as Go lists goroutines, while that stays cheap: a
 * pass over the registry per G.  Past SORT_MAX Gs, registry order, and
 * past GMP_DETAIL_MAX a summary of the rest. */
#define SORT_MAX 2000

struct nextg {
	uint64_t after, best;
	struct g *gp;
	long n;
};

static void dump_or_count(struct g *gp, void *arg)
{
	struct dumpctx *dc = arg;
	if (load_acq(&gp->status) == G_DEAD)
		return;
	if (dc->shown++ < GMP_DETAIL_MAX)
		dump_g(gp, dc);
	else
		gmp_gsummary_add(&dc->rest, gp);
}

static void count_after(struct g *gp, void *arg)
{
	struct dumpctx *dc = arg;
	if (gp->goid > dc->after && load_acq(&gp->status) != G_DEAD)
		gmp_gsummary_add(&dc->rest, gp);
}

static void next_g(struct g *gp, void *arg)
{
	struct nextg *ng = arg;
	uint64_t id = gp->goid;
	ng->n++;
	if (id > ng->after && id < ng->best && load_acq(&gp->status) != G_DEAD) {
		ng->best = id;
		ng->gp = gp;
	}
}

static void dump_all_gs(struct dumpctx *dc)
{
	struct nextg ng = { 0, UINT64_MAX, NULL, 0 };
	gmp_registry_foreach_unlocked(next_g, &ng);
	if (ng.n > SORT_MAX) {
		gmp_registry_foreach_unlocked(dump_or_count, dc);
		gmp_gsummary_print(dc->ob, &dc->rest, true);
		return;
	}
	for (long i = 0; ng.gp && i < GMP_DETAIL_MAX; i++) {
		dump_g(ng.gp, dc);
		dc->after = ng.best;
		ng = (struct nextg){ ng.best, UINT64_MAX, NULL, 0 };
		gmp_registry_foreach_unlocked(next_g, &ng);
	}
	if (ng.gp) {
		gmp_registry_foreach_unlocked(count_after, dc);
		gmp_gsummary_print(dc->ob, &dc->rest, true);
	}
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGQUIT: return "SIGQUIT: quit";
	case SIGSEGV: return "SIGSEGV: segmentation violation";
	case SIGBUS: return "SIGBUS: bus error";
	case SIGILL: return "SIGILL: illegal instruction";
	case SIGFPE: return "SIGFPE: floating-point exception";
	case SIGABRT: return "SIGABRT: abort";
	default: return NULL;
	}
}

/* The dump itself; the world is stopped around it. */
/* Whether sp is on one of self's own stacks: g0's, or its signal stack
 * (gsigstack.c). */
static bool on_m_stack(struct m *self, uintptr_t sp)
{
	uintptr_t lo = (uintptr_t)self->gsignal.sp;
	return (sp & ~(uintptr_t)(M_REGION_SIZE - 1)) == (uintptr_t)self ||
	       (sp >= lo && sp < lo + self->gsignal.size);
}

struct dumprun {
	int sig;
	siginfo_t *si;
	void *uc;
	bool terminal;
	struct m *self;
	bool done;
};

static void dump_world(struct dumprun *r);

/* libunwind takes the loader's lock (dl_iterate_phdr) for every frame: an
 * M stopped while it held that lock would hang the dump.  So the dump
 * takes it first (it is recursive), waiting for a holder to finish, and
 * stops the world from inside. */
static int dump_locked(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)info, (void)size;
	struct dumprun *r = arg;
	if (!r->done) {
		r->done = true;
		dump_world(r);
	}
	return 1;
}

void gmp_dump(int sig, siginfo_t *si, void *uc, bool terminal)
{
	long tid = now_tid();
	int expect = 0;
	if (!__atomic_compare_exchange_n(&dumping, &expect, (int)tid, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	struct m *self = m_by_tid(tid);
	/* On g0 the FS base may still name a G now running elsewhere, and
	 * libunwind and the loader may touch errno and TLS: borrow the M's own
	 * TCB for the dump.  (The handler itself runs on the M's signal stack
	 * whatever it interrupted: gsigstack.c.) */
	void *oldfs = NULL;
	bool swapped_fs = false;
	if (self && on_m_stack(self, uc_sp(uc))) {
		oldfs = gmp_arch_tp();
		if (oldfs != self->owntcb) {
			gmp_arch_setfs(self->owntcb);
			swapped_fs = true;
		}
	}
	struct dumprun r = { sig, si, uc, terminal, self, false };
	dl_iterate_phdr(dump_locked, &r);
	if (!r.done)
		dump_world(&r);
	if (swapped_fs)
		gmp_arch_setfs(oldfs);
	__atomic_store_n(&dumping, 0, __ATOMIC_RELEASE);
}

static void dump_world(struct dumprun *r)
{
	int sig = r->sig;
	siginfo_t *si = r->si;
	void *uc = r->uc;
	bool terminal = r->terminal;
	struct m *self = r->self;
	stop_the_world(self, terminal);

	int fd = ob_open(dump_file);
	struct outbuf ob;
	ob_init(&ob, fd);
	const char *name = signame(sig);
	if (name && terminal) {
		ob_str(&ob, name);
	} else {
		ob_str(&ob, "gmp: dump on signal ");
		ob_dec(&ob, sig);
	}
	ob_str(&ob, "\nPC=");
	ob_hex(&ob, uc_pc(uc));
	ob_str(&ob, " m=");
	ob_dec(&ob, self ? self->id : -1);
	ob_str(&ob, " sigcode=");
	ob_dec(&ob, si->si_code);
	if (gmp_dump_fatal(sig) && si->si_code > 0) {
		ob_str(&ob, " addr=");
		ob_hex(&ob, (uintptr_t)si->si_addr);
	}
	ob_str(&ob, "\n\n");
	struct dumpctx dc = { .ob = &ob, .self = self, .self_uc = uc, .now = gmp_nanotime() };
	gmp_schedtrace_line(&ob, dc.now);
	gmp_scheddetail(&ob, false, false);
	ob_char(&ob, '\n');
	if (self && (uc_sp(uc) & ~(uintptr_t)(M_REGION_SIZE - 1)) == (uintptr_t)self) {
		ob_str(&ob, "m=");
		ob_dec(&ob, self->id);
		ob_str(&ob, " on its scheduler stack (g0):\n");
		gmp_backtrace_signal(&ob, uc, "  ");
		ob_char(&ob, '\n');
	}
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink) {
		if (load_acq(&mp->dump_ack) == 2) {
			ob_str(&ob, "m=");
			ob_dec(&ob, mp->id);
			ob_str(&ob, " did not stop for the dump\n");
		}
	}
	dump_all_gs(&dc);
	ob_flush(&ob);
	if (fd != 2)
		gmp_syscall(SYS_close, fd, 0, 0);

	if (!terminal)
		start_the_world();
}

void gmp_dump_fault(int sig, siginfo_t *si)
{
	if (gmp_dump_fatal(sig) && si->si_code > 0 && load_acq(&recover_tid) == now_tid())
		siglongjmp(recover_buf, 1);
}

bool gmp_dump_busy(void)
{
	return load_acq(&dumping) != 0;
}

bool gmp_dumping_here(void)
{
	int busy = load_acq(&dumping);
	return busy != 0 && busy == now_tid();
}

bool gmp_dump_wait_other(void *uc)
{
	int busy = load_acq(&dumping);
	if (busy == 0 || busy == now_tid())
		return false;
	gmp_dump_serve_stop(uc);
	return true;
}

void gmp_dump_init(void)
{
	pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
	gmp_unwind_init();
	const char *f = getenv("GMP_DUMP_FILE");
	if (f && *f) {
		strncpy(dump_file, f, sizeof dump_file - 1);
		dump_file[sizeof dump_file - 1] = '\0';
	}
}

void gmp_dump_fork(enum gmp_fork_phase phase)
{
	if (phase != FORK_CHILD)
		return;
	pid = (int)gmp_syscall(SYS_getpid, 0, 0, 0);
	struct m *self = getg()->m;
	for (struct m *mp = gmp_allm; mp; mp = mp->alllink)
		if (mp != self)
			mp->gone = true;
}
