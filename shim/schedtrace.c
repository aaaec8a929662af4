/* GMPDEBUG=schedtrace=N: one line every N ms describing the scheduler, as
 * Go's GODEBUG=schedtrace does; scheddetail=1 adds a line per P, M and G.
 *
 * The lines come from a thread of their own rather than from sysmon:
 * sysmon sleeps for good while every P is idle, and a trace must keep
 * ticking then (an idle scheduler is worth seeing).  The thread is an OS
 * thread that runs no G, blocks every signal, and writes with raw
 * write(2) from a stack buffer, so it never takes a stdio or malloc lock
 * that a G might hold. */
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

#include "compat/debug.h"
#include "counters.h"
#include "fork.h"
#include "insight.h"
#include "mstart.h"
#include "outbuf.h"
#include "procfs.h"
#include "registry.h"
#include "runq.h"
#include "runtime.h"
#include "sanitizer.h"
#include "schedtrace.h"
#include "sys.h"
#include "timer.h"
#include "unwind.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* A new M region (allocm): valgrind learns its g0 stack. */
void gmp_insight_m_new(struct m *mp)
{
	gmp_san_m_new(mp);
}

static const char *const wait_names[] = {
	[WAIT_NONE] = "",
	[WAIT_MUTEX] = "mutex lock",
	[WAIT_COND] = "cond wait",
	[WAIT_JOIN] = "join",
	[WAIT_ONCE] = "once",
	[WAIT_SLEEP] = "sleep",
	[WAIT_FUTEX] = "futex wait",
	[WAIT_SEMA] = "semaphore",
	[WAIT_BARRIER] = "barrier",
	[WAIT_RWLOCK] = "rwlock",
	[WAIT_IO_READ] = "IO wait (read)",
	[WAIT_IO_WRITE] = "IO wait (write)",
	[WAIT_SELECT] = "select",
};
/* A reason added to enum waitreason without a name here prints "wait". */
_Static_assert(WAIT_SELECT < GMP_NWAITREASON, "counters.h: GMP_NWAITREASON too small");

const char *gmp_waitreason_string(uint32_t reason)
{
	if (reason < sizeof wait_names / sizeof *wait_names && wait_names[reason])
		return wait_names[reason];
	return "wait";
}

const char *gmp_gstatus_string(uint32_t status)
{
	static const char *const names[] = { "idle", "runnable", "running", "syscall", "waiting", "dead" };
	return status < 6 ? names[status] : "?";
}

int gmp_glist_len(struct g *list)
{
	int n = 0;
	for (; list; list = list->schedlink)
		n++;
	return n;
}

static int64_t start_ns;

/* Go's count includes its sysmon and template thread too. */
int gmp_os_threads(void)
{
	int nm = 0;
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink)
		if (!mp->gone)
			nm++;
	return nm + 2 + gmp_procfs_threads(); /* sysmon, the template thread, the /proc reader */
}

/* Go's summary line, with "gmp" for "SCHED". */
void gmp_schedtrace_line(struct outbuf *ob, int64_t now)
{
	int procs = sched.gomaxprocs;
	int idle = __atomic_load_n(&sched.nmidle, __ATOMIC_RELAXED);
	ob_str(ob, "gmp ");
	ob_dec(ob, (now - start_ns) / 1000000);
	ob_str(ob, "ms: gomaxprocs=");
	ob_dec(ob, procs);
	ob_str(ob, " idleprocs=");
	ob_dec(ob, load_acq(&sched.npidle));
	ob_str(ob, " threads=");
	ob_dec(ob, gmp_os_threads());
	ob_str(ob, " spinningthreads=");
	ob_dec(ob, load_acq(&sched.nmspinning));
	ob_str(ob, " idlethreads=");
	ob_dec(ob, idle);
	ob_str(ob, " runqueue=");
	ob_dec(ob, load_acq(&sched.runqsize));
	ob_str(ob, " gs=");
	ob_dec(ob, load_acq(&sched.ngs));
	ob_str(ob, " [");
	for (int i = 0; i < procs; i++) {
		if (i)
			ob_char(ob, ' ');
		ob_dec(ob, runqsize(&allp[i]));
	}
	ob_str(ob, "]\n");
}

static void detail_g(struct g *gp, void *arg)
{
	struct outbuf *ob = arg;
	uint32_t st = load_acq(&gp->status);
	if (st == G_DEAD)
		return;
	struct m *mp = load_acq(&gp->m);
	ob_str(ob, "  G");
	ob_udec(ob, gp->goid);
	ob_str(ob, ": status=");
	ob_dec(ob, st);
	ob_char(ob, '(');
	ob_str(ob, st == G_WAITING ? gmp_waitreason_string(load_acq(&gp->waitreason)) : gmp_gstatus_string(st));
	ob_str(ob, ") m=");
	ob_dec(ob, mp && (st == G_RUNNING || st == G_SYSCALL) ? mp->id : -1);
	ob_str(ob, " pthread=");
	ob_hex(ob, (uintptr_t)gp->tcb);
	ob_char(ob, '\n');
}

void gmp_gsummary_add(struct gmp_gsummary *s, struct g *gp)
{
	uint32_t st = load_acq(&gp->status);
	s->n++;
	s->bystatus[st < 8 ? st : 7]++;
	if (st == G_WAITING) {
		uint32_t r = load_acq(&gp->waitreason);
		s->byreason[r < GMP_NWAITREASON ? r : 0]++;
	}
	/* The first GMP_GSUMMARY_SITES sites seen keep their slots: a
	 * program with a million threads makes them in a few places. */
	for (int i = 0; i < GMP_GSUMMARY_SITES; i++) {
		if (s->sites[i].pc == gp->createpc) {
			s->sites[i].n++;
			return;
		}
		if (s->sites[i].n == 0) {
			s->sites[i].pc = gp->createpc;
			s->sites[i].n = 1;
			return;
		}
	}
	s->othersites++;
}

void gmp_gsummary_print(struct outbuf *ob, const struct gmp_gsummary *s, bool symbolize)
{
	if (s->n == 0)
		return;
	ob_str(ob, "... and ");
	ob_dec(ob, s->n);
	ob_str(ob, " more threads (GMP_DETAIL_MAX is ");
	ob_dec(ob, GMP_DETAIL_MAX);
	ob_char(ob, ')');
	const char *sep = ": ";
	for (uint32_t st = 0; st < 8; st++) {
		if (s->bystatus[st] == 0)
			continue;
		ob_str(ob, sep);
		sep = ", ";
		ob_dec(ob, s->bystatus[st]);
		ob_char(ob, ' ');
		ob_str(ob, gmp_gstatus_string(st));
		if (st != G_WAITING)
			continue;
		ob_str(ob, " (");
		bool first = true;
		for (uint32_t r = 0; r < GMP_NWAITREASON; r++) {
			if (s->byreason[r] == 0)
				continue;
			if (!first)
				ob_str(ob, ", ");
			first = false;
			ob_str(ob, gmp_waitreason_string(r));
			ob_char(ob, ' ');
			ob_dec(ob, s->byreason[r]);
		}
		ob_char(ob, ')');
	}
	ob_char(ob, '\n');
	for (int i = 0; i < GMP_GSUMMARY_SITES && s->sites[i].n; i++) {
		ob_str(ob, "  ");
		ob_dec(ob, s->sites[i].n);
		ob_str(ob, " created at ");
		if (s->sites[i].pc == 0)
			ob_str(ob, "(not by pthread_create)");
		else if (symbolize)
			gmp_symbolize(ob, s->sites[i].pc, false);
		else
			ob_hex(ob, s->sites[i].pc);
		ob_char(ob, '\n');
	}
	if (s->othersites) {
		ob_str(ob, "  ");
		ob_dec(ob, s->othersites);
		ob_str(ob, " created elsewhere\n");
	}
}

struct detailctx {
	struct outbuf *ob;
	long shown;
	struct gmp_gsummary rest;
};

static void detail_or_count(struct g *gp, void *arg)
{
	struct detailctx *dc = arg;
	if (load_acq(&gp->status) == G_DEAD)
		return;
	if (dc->shown++ < GMP_DETAIL_MAX)
		detail_g(gp, dc->ob);
	else
		gmp_gsummary_add(&dc->rest, gp);
}

/* Go's per-P, per-M and per-G lines. */
void gmp_scheddetail(struct outbuf *ob, bool lock_registry, bool with_gs)
{
	for (int i = 0; i < sched.gomaxprocs; i++) {
		struct p *pp = &allp[i];
		struct m *mp = load_acq(&pp->m);
		ob_str(ob, "  P");
		ob_dec(ob, i);
		ob_str(ob, ": status=");
		ob_dec(ob, load_acq(&pp->status));
		ob_str(ob, " schedtick=");
		ob_udec(ob, load_acq(&pp->schedtick));
		ob_str(ob, " syscalltick=");
		ob_udec(ob, load_acq(&pp->syscalltick));
		ob_str(ob, " m=");
		ob_dec(ob, mp ? mp->id : -1);
		ob_str(ob, " runqsize=");
		ob_dec(ob, runqsize(pp));
		ob_str(ob, " gfreecnt=");
		ob_dec(ob, load_acq(&pp->gfreecnt));
		ob_char(ob, '\n');
	}
	for (struct m *mp = load_acq(&gmp_allm); mp; mp = mp->alllink) {
		if (mp->gone)
			continue;
		struct p *pp = load_acq(&mp->p);
		struct g *gp = load_acq(&mp->curg);
		struct p *op = load_acq(&mp->oldp);
		ob_str(ob, "  M");
		ob_dec(ob, mp->id);
		ob_str(ob, ": p=");
		ob_dec(ob, pp ? pp->id : -1);
		ob_str(ob, " curg=");
		ob_dec(ob, gp ? (int64_t)gp->goid : -1);
		ob_str(ob, " spinning=");
		ob_str(ob, load_acq(&mp->spinning) ? "true" : "false");
		ob_str(ob, " blocked=");
		ob_str(ob, op ? "true" : "false"); /* in a syscall, P left behind */
		ob_str(ob, " tid=");
		ob_dec(ob, mp->tid);
		ob_char(ob, '\n');
	}
	if (!with_gs)
		return;
	struct detailctx dc = { .ob = ob };
	if (lock_registry)
		gmp_registry_foreach(detail_or_count, &dc);
	else
		gmp_registry_foreach_unlocked(detail_or_count, &dc);
	if (dc.rest.n) {
		ob_str(ob, "  ");
		gmp_gsummary_print(ob, &dc.rest, false);
	}
}

static void *schedtrace_thread(void *arg)
{
	(void)arg;
	sigset_t all;
	sigfillset(&all);
	gmp_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0, 8, 0, 0);
	int64_t period = (int64_t)gmp_debug.schedtrace * 1000000;
	int64_t next = start_ns + period;
	for (;;) {
		struct timespec ts = { next / 1000000000, next % 1000000000 };
		while (gmp_syscall6(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&ts, 0, 0, 0) ==
		       -4)
			;
		struct outbuf ob;
		ob_init(&ob, 2);
		gmp_schedtrace_line(&ob, next);
		if (gmp_debug.scheddetail)
			gmp_scheddetail(&ob, true, true);
		ob_flush(&ob);
		next += period;
		int64_t now = gmp_nanotime();
		if (next < now) /* fell behind (stopped, or stderr blocked): skip */
			next = now + period - (now - next) % period;
	}
	return NULL;
}

void gmp_schedtrace_start(void)
{
	if (start_ns == 0)
		start_ns = gmp_nanotime();
	if (gmp_debug.schedtrace <= 0)
		return;
	if (!gmp_start_runtime_thread(schedtrace_thread))
		gmp_printf("gmpshim: cannot start the schedtrace thread\n");
}

void gmp_schedtrace_fork(enum gmp_fork_phase phase)
{
	if (phase == FORK_CHILD)
		gmp_schedtrace_start();
}
