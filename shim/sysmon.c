/* sysmon: the monitor thread (proc.go: sysmon, retake).  A plain OS
 * thread with no P that wakes up every 20 us, backing off to 10 ms when
 * it finds nothing to do (200 ms when nothing could need it), and
 *   - retakes the P of an M that has been in a syscall for a whole tick
 *     and hands it to another M, so a blocked G never stalls its queue;
 *   - preempts a G that has run past its time slice (preempt.c);
 *   - polls the network if nobody has for 10 ms;
 *   - backs off to 10 ms while every P is idle, and sleeps for good once
 *     none has moved for 50 ms (acquirep wakes it);
 *   - performs the wake-ups signal handlers deferred (sigwake.c), which
 *     also cut its sleep short.
 * It runs no G and calls no interposed function: raw syscalls only. */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#include "compat/debug.h"
#include "counters.h"
#include "fork.h"
#include "gfree.h"
#include "gsignal.h"
#include "insight.h"
#include "lock.h"
#include "mstart.h"
#include "netpoll.h"
#include "preempt.h"
#include "rtprio.h"
#include "proc.h"
#include "rescue.h"
#include "rtsig.h"
#include "runq.h"
#include "runtime.h"
#include "sigwake.h"
#include "sys.h"
#include "syscall.h"
#include "sysmon.h"
#include "timer.h"

#define load_acq(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

#define SYSMON_MIN_NS 20000LL
#define SYSMON_MAX_NS 10000000LL
/* The longest sleep with nothing to watch (below, "held"); with Gs parked
 * on the network and an M waiting in the poller for them, shorter: that M
 * may leave the poller to run one of them for long, and nobody else polls
 * until sysmon looks. */
#define SYSMON_HELD_MAX_NS 200000000LL
#define SYSMON_HELD_NETPOLL_NS 50000000LL
#define SYSCALL_RETAKE_NS 10000000LL /* retake even with nothing queued */
#define FORCE_POLL_NS 10000000LL
/* Every P idle at each look, and none scheduled in between, for this
 * long: sysmon sleeps until acquirep wakes it.  Not at the first idle
 * look: a server idle between requests would pay that wake-up and the
 * sleep, two system calls, at each request. */
#define SYSMON_QUIET_NS 50000000LL
/* Free Gs whose stack pages one round gives back.  While any P runs,
 * rounds are paced to 1% of sysmon's time, as Go paces its scavenger:
 * a round zaps pages on sysmon's CPU and flushes the TLB of the CPUs
 * running the program (an IPI each, one per stack where the kernel cannot
 * batch them, see stack.c).  Unpaced, a burst of 10,000 threads that
 * ended took 40% from threads computing beside sysmon while it returned
 * their stacks round after round (gmpbench's cpu_bound after sleepers).
 * A quiet program gets them all back at once. */
#define SCAVENGE_BATCH 256
#define SCAVENGE_PACE 100

/* What sysmon saw of each P at its last look. */
struct sysmontick {
	uint32_t syscalltick;
	int64_t syscallwhen;
	uint32_t schedtick;
	int64_t schedwhen;     /* when schedtick last moved: the G's slice began */
	int64_t probewhen;     /* last look at its M's system call */
	uint32_t relooks;      /* looks since its slice ended that saw it running once */
};

#define PROBE_EVERY_NS 1000000LL /* a G running user code is looked at once per ms */

/* A G past its slice whose M a look saw running once (rescue.c wants two
 * sightings in a row) is looked at again this soon, then at doubling
 * intervals, rather than at sysmon's next round, up to a slice later:
 * redis's I/O threads busy-wait for the G queued behind (docs/design.md,
 * "Rescuing a P from a call the shim never saw").  One that could not be
 * placed at all waits for that round: on two CPUs it is mostly the M
 * sysmon itself displaced, and looks at it cost the G running there. */
#define RELOOK_NS 50000LL
#define RELOOK_DOUBLINGS 4

/* Exact slices, for Gs that compute.  sysmon looks when a timed slice
 * ends, every wake slice while woken Gs wait, and again soon at a G seen
 * running once: a look every 50-125 us while Gs queue.  That is what
 * threads that busy-wait for each other need (redis's I/O threads), and
 * their preemptions show it: the request stops them in the program's own
 * code (async_preempts).  A thread-per-connection server's Gs run a
 * few microseconds each and are always queued; the Ps a look finds past
 * a slice are held by an M the kernel switched out or inside a call, the
 * request finds the G in a call or in the runtime, and the looks alone
 * (3,500 a second, each a thread woken on a CPU two busy threads share)
 * cost the echo server at 10,000 connections 5-8% of its round trips.
 * So the looks are exact only for TIGHT_NS after a request stopped a G in
 * its own code (and at start); otherwise sysmon looks once a slice while
 * Gs queue, ignoring slice ends, and a G that comes to compute is found
 * at one of those looks: its preemption makes them exact again.  (Once
 * every four slices gained no more round trips and doubled the echo
 * server's p99 at 100 connections: an M the kernel switched out then
 * waited for the kernel's next tick, 4 ms here, where a wake-up of
 * sysmon had been a chance to run it sooner.) */
#define TIGHT_NS 50000000LL

/* Preemptions so far that stopped a G in the program's own code. */
static uint64_t async_preempts(void)
{
	uint64_t n = 0;
	for (int i = 0; i < sched.gomaxprocs; i++)
		n += __atomic_load_n(&allp[i].ctr.asyncpreempts, __ATOMIC_RELAXED);
	return n;
}

static struct sysmontick *ticks;

/* Wake-up preemption.  A G readied from a wait while every P was busy
 * (an event loop back from epoll_wait, a thread another one woke) would
 * wait for the running Gs' slices to end, up to GMP_TIMESLICE and the
 * sysmon sleep that notices it; where threads busy-wait for each other
 * (redis's I/O threads) every round of their hand-offs paid that.  The
 * kernel lets a waking thread preempt a running one at once.  Here, while
 * such Gs wait, a running G's slice is a wake slice (a quarter), one
 * preemption per waiting G, and sysmon looks every wake slice.  The waker
 * hurries a sysmon that sleeps longer than a wake slice only if sysmon saw
 * a G run across its whole last interval: hurrying it at every such ready
 * cost an event-loop server, whose Gs run briefly, 0.3 futex calls per
 * request.  Gs that were preempted themselves are not counted: Gs that
 * only compute keep their whole slices among themselves.
 *
 * How many woken Gs are queued and have not run yet (racy: a hint). */
static int woken_waiting(void)
{
	uint32_t n = load_acq(&sched.wokeput);
	for (int i = 0; i < sched.gomaxprocs; i++)
		n += load_acq(&allp[i].wokeput) - load_acq(&allp[i].wokeget);
	return (int32_t)n > 0 ? (int)(int32_t)n : 0;
}

/* Whether any G waits in a run queue (racy: a hint). */
static bool gs_queued(void)
{
	if (load_acq(&sched.runqsize) > 0 || gmp_rt_queued())
		return true;
	for (int i = 0; i < sched.gomaxprocs; i++)
		if (!runqempty(&allp[i]))
			return true;
	return false;
}

/* What sysmon may have to act on even with no P running a G: a queued G,
 * a G parked on the network while no M waits in the poller (sysmon then
 * polls), a timer (racy: a hint). */
static bool work_to_watch(void)
{
	return woken_waiting() > 0 || gs_queued() ||
	       (gmp_netpoll_waiters() > 0 && load_acq(&sched.lastpoll) != 0) || gmp_timers_next() >= 0;
}

/* Whether a P runs a G, or an M holds it to find one (racy: a hint). */
static bool ps_running(void)
{
	for (int i = 0; i < sched.gomaxprocs; i++)
		if (load_acq(&allp[i].status) == P_RUNNING)
			return true;
	return false;
}

void gmp_sysmon_hurry(enum sysmon_hurry need)
{
	/* Against sysmon's second look at the queues after it raised the
	 * flag: one of the two sees the other (the G was queued first). */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sched.sysmonhurry, __ATOMIC_RELAXED) >= need &&
	    __atomic_exchange_n(&sched.sysmonhurry, 0, __ATOMIC_ACQ_REL))
		gmp_sigwake_kick();
}

/* Threads that only compute, each on its own data (pbzip2's 8
 * compressing threads at 2 Ps), lose their caches at every slice end: at
 * 500 us pbzip2 ran 1.2-1.8 times as long as natively, where the kernel's
 * slices last milliseconds.  Threads that busy-wait for each other
 * (redis's I/O threads) need short slices, and from outside both only
 * run.  What tells them apart: a spinner of a real program passes a
 * preemption point (a mutex, a read, a write) every few slices, a thread
 * sorting a block passes none for hundreds.  So after SLICE_STREAK
 * preemptions in a row that find the G has passed none since the last,
 * each further one doubles its slice, up to SLICE_MAX_NS; one that finds
 * it has brings the slice back.  (Doubling from the first, redis's main
 * thread, which spins through a slice or two while it waits for its I/O
 * threads, held them up: p50 at 10,000 requests/s went from 4-9 ms to
 * 46-105 ms.  Doubling unless the G had parked or waited in the kernel
 * cut redis at 10,000 requests/s to 4,000: its I/O threads read and
 * write without parking.) */
#define SLICE_MAX_NS 4000000LL
#define SLICE_STREAK 4

/* A G its last preemption found in a spin-wait loop (the CPU's pause or
 * yield hint around its pc: libgomp's waits, a spinlock) waits for another
 * thread, most likely one queued behind it.  Threads that busy-wait for
 * each other at fewer Ps than themselves hand over at each preemption, so
 * the slice is the hand-off's latency: an OpenMP ordered loop of 20,000
 * iterations at one P took 20-75 s with slices grown to 4 ms, where
 * natively it is over in a millisecond.  Such a G gets this slice, never a
 * grown one, while its preemptions keep finding it there. */
#define SPIN_SLICE_NS (2 * SYSMON_MIN_NS)

/* A SCHED_RR thread's quantum stays GMP_TIMESLICE (docs/compat.md). */
static int64_t g_slice(struct g *gp)
{
	if (gp && __atomic_load_n(&gp->spinwait, __ATOMIC_RELAXED) && gmp_timeslice_ns > SPIN_SLICE_NS &&
	    __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED) == 0)
		return SPIN_SLICE_NS;
	if (gp == NULL || gp->slicegrow < SLICE_STREAK || gmp_timeslice_ns >= SLICE_MAX_NS ||
	    __atomic_load_n(&gp->rtprio, __ATOMIC_RELAXED) != 0)
		return gmp_timeslice_ns;
	int64_t s = gmp_timeslice_ns << (gp->slicegrow - SLICE_STREAK + 1);
	return s < SLICE_MAX_NS ? s : SLICE_MAX_NS;
}

/* At gp's preemption at the end of its own slice (not a wake slice). */
static void slice_adapt(struct g *gp)
{
	uint32_t c = __atomic_load_n(&gp->calls, __ATOMIC_RELAXED);
	if (c != gp->callsseen || __atomic_load_n(&gp->spinwait, __ATOMIC_RELAXED))
		gp->slicegrow = 0;
	else if (gp->slicegrow < SLICE_STREAK + 4)
		gp->slicegrow++;
	gp->callsseen = c;
}

/* A slice this close to its end is over: a look at its very end would
 * otherwise find it a few microseconds short and sleep again. */
#define SLICE_GRACE_NS SYSMON_MIN_NS

/* How soon a signal left waiting on the runtime's code is asked for
 * again. */
#define SIGRETRY_NS (5 * SYSMON_MIN_NS)

/* Retakes Ps blocked in syscalls, returns how many; preempts Gs past their
 * slice, cut short for up to woken of them.  *longrun: some G ran across
 * the whole interval since the last look.  *until: when sysmon must look
 * next for a P (-1: none): a G kept for its M due, a signal to ask for
 * again, and if tight, the first slice still running ends that a G waits
 * behind, or a G seen running once is to be seen again. */
static int retake(int64_t now, int woken, bool queued, bool tight, bool *longrun, int64_t *until)
{
	int n = 0;
	*longrun = false;
	*until = -1;
	for (int i = 0; i < sched.gomaxprocs; i++) {
		struct p *pp = &allp[i];
		struct sysmontick *pd = &ticks[i];
		uint32_t status = load_acq(&pp->status);
		if (status == P_RUNNING) {
			/* No schedule for a whole tick: running user code, or
			 * blocked in a call we never saw (rescue.c: its P is
			 * taken without a signal).  Look at the M (its CPU clock,
			 * and a few /proc reads when that cannot tell) once its
			 * slice is up, else at most once per ms: only an M in
			 * user mode is sent a preemption request, so that no
			 * blocking call sees EINTR from us. */
			uint32_t t = load_acq(&pp->schedtick);
			bool fresh = pd->schedtick != t;
			if (fresh) {
				int64_t began = __atomic_load_n(&pp->slicewhen, __ATOMIC_RELAXED);
				pd->schedtick = t;
				pd->schedwhen = began > 0 && began <= now ? began : now;
				pd->probewhen = 0;
				pd->relooks = 0;
			} else {
				*longrun = true;
			}
			/* Gs a poll left here for this P's M, which its G still
			 * keeps past their due time (proc.c, injectglist_p). */
			if (wake_if_due(pp, now)) {
				GMP_CTR_NOP_ADD(keepwakes, 1);
			} else {
				int64_t due = load_acq(&pp->wakedue);
				if (due != 0 && (*until < 0 || due < *until))
					*until = due;
			}
			/* A G alone is preempted only if somebody asked (a
			 * realtime G; an asynchronous cancel, which may have
			 * found it queued, its mark since cleared by execute):
			 * else it would only be resumed. */
			struct m *mp = __atomic_load_n(&pp->m, __ATOMIC_ACQUIRE);
			struct g *gp = mp ? __atomic_load_n(&mp->curg, __ATOMIC_ACQUIRE) : NULL;
			int64_t ran = now - pd->schedwhen;
			bool asked = gp && (__atomic_load_n(&gp->preempt, __ATOMIC_RELAXED) ||
					    __atomic_load_n(&gp->cancelkick, __ATOMIC_RELAXED));
			/* Timed only where a G waits behind it: on this P, or on
			 * the global queue, which any P takes from (and where a
			 * preempted G goes).  One queued on another P's ring
			 * waits for that P's G: preempting this one would only
			 * resume it (gmp_nothing_else asks the same), a request
			 * for nothing, which apache2's children got a thousand
			 * times a second. */
			bool behind = queued && gmp_gs_behind(pp);
			int64_t slice = g_slice(gp);
			bool wakecut = woken > 0 && gmp_wakeslice_ns < slice;
			if (wakecut)
				slice = gmp_wakeslice_ns;
			bool timed = gmp_timeslice_ns > 0 && (behind || asked);
			bool overdue = timed && ran >= slice - SLICE_GRACE_NS;
			/* Exact looks: at this slice's end, or within a slice
			 * for one past its end (a request asked for, a probe
			 * that could not tell). */
			int64_t due = !overdue ? pd->schedwhen + slice : now + gmp_timeslice_ns;
			if (tight && timed && (*until < 0 || due < *until))
				*until = due;
			/* A signal that landed on the runtime's code waits on the G
			 * (gmp_sig_must_wait): asked for again until it lands on
			 * the program's. */
			if (gp && __atomic_load_n(&gp->sigretry, __ATOMIC_ACQUIRE) && gmp_sig_deliverable(gp)) {
				gmp_sigsend(mp, SIGREQ_DELIVER);
				if (*until < 0 || now + SIGRETRY_NS < *until)
					*until = now + SIGRETRY_NS;
			}
			if (!overdue && (fresh || now - pd->probewhen < PROBE_EVERY_NS))
				continue;
			pd->probewhen = now;
			/* A deliver request merged into another instance of the
			 * runtime's signal is asked for again. */
			if (gp && gmp_sig_deliverable(gp))
				gmp_sigsend(mp, SIGREQ_DELIVER);
			/* As for a P in a syscall (below): nothing queued behind
			 * a sleeping M, and no G waiting elsewhere or an M free
			 * to take it, the P stays, but not forever. */
			bool take = !runqempty(pp) ||
				    (queued && load_acq(&sched.nmspinning) + load_acq(&sched.npidle) == 0) ||
				    now - pd->schedwhen >= SYSCALL_RETAKE_NS;
			/* A G within its slice is probed (a clock read of its M,
			 * /proc reads) only once it has held the P 10 ms: if a
			 * G waits behind it, its slice ends first and the probe
			 * comes then; if none does, a rescue helps nobody yet.
			 * Probing every P each ms while a busy server's Gs ran
			 * longer than a look's interval cost apache2 (worker
			 * MPM, keep-alive) a system call per request. */
			if (!overdue && now - pd->schedwhen < SYSCALL_RETAKE_NS)
				continue;
			enum probe what = gmp_rescue_probe(pp, take, overdue, now);
			if (what == PROBE_RESCUED)
				n++;
			else if (what == PROBE_USER && overdue && gmp_rt_slice_preempt(pp)) {
				preemptone(pp);
				/* The G after a spinner most likely spins too: its
				 * slice is timed from the switch, soon. */
				if (gp && __atomic_load_n(&gp->spinwait, __ATOMIC_RELAXED) &&
				    (*until < 0 || now + SPIN_SLICE_NS < *until))
					*until = now + SPIN_SLICE_NS;
				if (wakecut && ran < gmp_timeslice_ns - SLICE_GRACE_NS) {
					woken--;
					GMP_CTR_NOP_ADD(wakepreempts, 1);
				} else if (gp) {
					slice_adapt(gp);
				}
			} else if (what == PROBE_SEEN && overdue) {
				uint32_t k = pd->relooks++;
				int64_t again = now + (RELOOK_NS << (k < RELOOK_DOUBLINGS ? k : RELOOK_DOUBLINGS));
				if (tight && (*until < 0 || again < *until))
					*until = again;
			}
			continue;
		}
		if (status != P_SYSCALL)
			continue;
		/* A syscall seen for the first time gets a whole tick to return,
		 * and while Gs wait sysmon looks again when the tick is up, in
		 * either kind of look (a file read or an fsync the Gs queued
		 * behind its P would otherwise wait for the hand-off until
		 * sysmon's next look, a slice or more later, not a wake
		 * slice). */
		uint32_t t = load_acq(&pp->syscalltick);
		if (pd->syscalltick != t) {
			pd->syscalltick = t;
			pd->syscallwhen = now;
			int64_t tick = woken > 0 ? gmp_wakeslice_ns : gmp_timeslice_ns;
			if (queued && tick > 0 && (*until < 0 || now + tick < *until))
				*until = now + tick;
			continue;
		}
		/* Nothing queued behind it, and either no G waits anywhere or
		 * an M is free to take one: a hand-off would only cost the
		 * returning G its P.  Not forever, though (this P's timers and
		 * network are nobody's meanwhile).  Go hands the P off whenever
		 * no M is free; but where the Ps' threads outnumber the CPUs
		 * (two busy processes on two CPUs) a call "in progress" for a
		 * tick is mostly a thread the kernel preempted inside it, and
		 * each hand-off woke an M that found nothing, kept sysmon at
		 * its 20 us pace and cost the returning G its P: apache2 with
		 * keep-alive made 2 futex calls a request.  A G queued later
		 * hurries sysmon (proc.c), which then hands the P off. */
		if (runqempty(pp) && (!queued || load_acq(&sched.nmspinning) + load_acq(&sched.npidle) > 0) &&
		    pd->syscallwhen + SYSCALL_RETAKE_NS > now)
			continue;
		uint32_t want = P_SYSCALL;
		if (!__atomic_compare_exchange_n(&pp->status, &want, P_IDLE, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		/* The P is ours until handoffp places it. */
		pp->syscalltick++;
		pp->ctr.handoffs++;
		n++;
		handoffp(pp);
	}
	return n;
}

/* Sleeps until acquirep finds sysmon waiting, unless a P got busy while
 * it was deciding to. */
static void sysmon_idle(void)
{
	noteclear(&sched.sysmonnote);
	__atomic_store_n(&sched.sysmonwait, 1, __ATOMIC_SEQ_CST);
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* against acquirep's */
	/* A wake-up deferred by a signal handler before the flag was up
	 * would find nobody to wake: look for one after raising it. */
	if (__atomic_load_n(&sched.npidle, __ATOMIC_SEQ_CST) != (uint32_t)sched.gomaxprocs ||
	    gmp_sigwake_pending()) {
		uint32_t one = 1;
		if (__atomic_compare_exchange_n(&sched.sysmonwait, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			return;
		/* A waker took the flag: its notewakeup is coming. */
	}
	notesleep_nospin(&sched.sysmonnote);
}

void gmp_sysmon_wake(void)
{
	uint32_t one = 1;
	if (__atomic_compare_exchange_n(&sched.sysmonwait, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		notewakeup(&sched.sysmonnote);
}

/* A P running a G runs its own timers at its next schedule, and an idle
 * P's are run by the M that sleeps until them; give them a wake slice
 * before taking over: the G a timer readies then cuts the running G's
 * slice short (wake-up preemption), as the kernel lets a thread whose
 * sleep ended preempt a running one.  (1 ms with preemption off.) */
#define TIMER_SLACK_NS (gmp_wakeslice_ns > 0 ? gmp_wakeslice_ns : 1000000LL)

/* When sysmon should look at the timers next: the earliest deadline,
 * plus the slack its P gets (-1: none). */
static int64_t timers_watch_until(void)
{
	int64_t next = -1;
	for (int i = 0; i < sched.gomaxprocs; i++) {
		int64_t w = gmp_timers_next_p(&allp[i]), s = gmp_timers_slack(&allp[i], TIMER_SLACK_NS);
		if (w < 0 || s < 0)
			continue;
		w += s;
		if (next < 0 || w < next)
			next = w;
	}
	return next;
}

/* Runs the due timers nobody else will run soon: those of Ps held in a
 * syscall, and those of a P whose G has run a while without scheduling
 * (or of an idle P whose M has not got there). */
static int run_timers(int64_t now)
{
	struct g *list = gmp_timers_collect_all(NULL, now, TIMER_SLACK_NS);
	if (list == NULL)
		return 0;
	injectglist(list);
	return 1;
}

/* A count that moves whenever a P schedules or makes a syscall. */
static uint64_t ps_moves(void)
{
	uint64_t n = 0;
	for (int i = 0; i < sched.gomaxprocs; i++)
		n += load_acq(&allp[i].schedtick) + (uint64_t)load_acq(&allp[i].syscalltick);
	return n;
}

static void *sysmon(void *arg)
{
	(void)arg;
	/* Signals meant for the program's threads must not land here. */
	gmp_block_signals();
	/* Its looks time slices of tens of microseconds (SPIN_SLICE_NS): the
	 * kernel's default 50 us of timer slack would more than double them. */
	gmp_syscall(SYS_prctl, PR_SET_TIMERSLACK, 1000, 0);
	int idle = 0, woken = 0;  /* woken: Gs woken while no P was idle, queued at the last look */
	bool longrun = false; /* a G ran across the last interval */
	int64_t delay = SYSMON_MIN_NS, look = gmp_nanotime(), quiet = 0;
	int64_t lookdue = -1; /* when the last look wants the next (retake's until) */
	uint64_t asyncs = 0;  /* async_preempts() at the last look */
	int64_t tightuntil = look + TIGHT_NS; /* exact slices until then */
	bool tight = true;
	int64_t scavnext = 0; /* when the next scavenging round may come */
	uint64_t moves = 0;
	bool allidle = false; /* at the last look */
	bool waiting = true;  /* a G waited for a P at the last look */
	bool held = false;    /* at the last look: nothing to watch (below) */
	for (;;) {
		if (idle == 0)
			delay = SYSMON_MIN_NS;
		else if (idle > 50 || allidle)
			delay *= 2;
		/* Nothing to watch (held): no P runs a G, no G waits for one,
		 * none is parked on the network, no timer is set, no M runs
		 * without its P.  The program's threads are in system calls
		 * (an event loop in epoll_wait, a thread in read) or parked,
		 * and a G back from its call takes a P without sysmon.  What
		 * would need it hurries it, its flag being up for such a sleep
		 * (HURRY_WATCH): a G queued behind busy Ps, the first G parked
		 * on the network (sysmon polls when nobody else does), a P's
		 * first timer (its M may run a G rather than sleep until it,
		 * leaving it to sysmon's watch).  Go's sysmon looks every
		 * 10 ms all the same, and sleeps for good only with every P
		 * idle (as here after SYSMON_QUIET_NS, where acquirep wakes
		 * it: a wake-up per request of an event loop that is idle
		 * in between).  redis-server at 1,000 requests a second paid
		 * a tenth of a wake-up of sysmon per request. */
		int64_t maxdelay = !held || tight || gmp_wakeslice_ns <= 0 ? SYSMON_MAX_NS
				   : gmp_netpoll_waiters() > 0 ? SYSMON_HELD_NETPOLL_NS
								: SYSMON_HELD_MAX_NS;
		if (delay > maxdelay)
			delay = maxdelay;
		/* Preemption finds a G past its slice only when sysmon looks: a
		 * slice shorter than the backed-off sleep would not be kept
		 * while Gs wait for a P.  With none waiting at the last look,
		 * sysmon backs off as with every P idle (up to Go's sysmon's
		 * 10 ms): a process whose threads run and block in turn, never
		 * more than the Ps (each backend of a database forked per
		 * connection), woke it ~400 times a second per process for
		 * nothing; the first G that comes to wait behind a running one
		 * hurries it (gmp_markwoke, newproc, gosched_m).  Exact looks
		 * need no such bound: retake asks for one at each timed
		 * slice's end, and a slice after one past its end or after a
		 * syscall first seen with Gs queued.  Bounded, they also woke
		 * sysmon every GMP_TIMESLICE while Gs whose slices had grown
		 * to SLICE_MAX_NS computed, for nothing (2% of gmpbench's
		 * cpu_bound). */
		if (!tight && !allidle && waiting && gmp_timeslice_ns > 0 && delay > gmp_timeslice_ns)
			delay = gmp_timeslice_ns;
		/* While a woken G waits, look every wake slice.  (Looking every
		 * quarter slice whenever any G was queued kept slices to their
		 * length, but took sysmon to 8-20% of the CPU at one P.) */
		if (tight && woken > 0 && delay > gmp_wakeslice_ns)
			delay = gmp_wakeslice_ns;
		/* Be there when a timer may need us, in case its P is held, and
		 * when the last look asked (if tight, when a slice ends that a
		 * G waits behind). */
		int64_t sleep = delay, next = timers_watch_until();
		if (lookdue >= 0 && (next < 0 || lookdue < next))
			next = lookdue;
		if (next >= 0) {
			int64_t until = next - gmp_nanotime();
			if (until < sleep)
				sleep = until < SYSMON_MIN_NS ? SYSMON_MIN_NS : until;
		}
		/* A waker that misses the flag waits for this sleep at most.
		 * Raised for a sleep past a wake slice while a G runs that no
		 * P scheduled away from during the last interval (if tight),
		 * or while sysmon backs off with Gs running: one hurry per
		 * sleep.  A G that was not woken waits a slice anyway, so it
		 * hurries only a sleep past a slice: Gs that only compute
		 * preempted each other at 2 Ps with a wasted look each, the
		 * preempted G hurrying the sleep sysmon had planned to the
		 * next slice end (5% of gmpbench's cpu_bound).  Exact looks
		 * that sleep past a slice (the running Gs' slices have grown)
		 * are hurried as backed-off ones are. */
		uint32_t hurry = 0;
		if (held && sleep > SYSMON_MAX_NS)
			hurry = HURRY_WATCH;
		else if (((tight && (longrun || (!allidle && sleep > gmp_timeslice_ns))) || (!allidle && !waiting)) &&
			 gmp_wakeslice_ns > 0)
			hurry = sleep > gmp_timeslice_ns ? HURRY_QUEUED : sleep > gmp_wakeslice_ns ? HURRY_WOKEN : 0;
		__atomic_store_n(&sched.sysmonhurry, hurry, __ATOMIC_SEQ_CST);
		/* What came since the look by a waker that found the flag
		 * down: look again soon. */
		if (hurry == HURRY_WATCH && work_to_watch())
			sleep = SYSMON_MIN_NS;
		gmp_sigwake_sleep(sleep);
		__atomic_store_n(&sched.sysmonhurry, 0, __ATOMIC_RELAXED);
		gmp_sigwake_drain();
		int64_t now = gmp_nanotime();
		allidle = load_acq(&sched.npidle) == (uint32_t)sched.gomaxprocs;
		uint64_t moved = ps_moves();
		quiet = allidle && moved == moves ? quiet + (now - look) : 0;
		moves = moved;
		look = now;
		/* Not while a timer is nobody's: sysmon is its last resort. */
		if (quiet >= SYSMON_QUIET_NS && timers_watch_until() < 0) {
			/* A program gone idle after a burst of threads gets
			 * their stack pages back before sysmon sleeps. */
			while (gfree_scavenge(SCAVENGE_BATCH) > 0)
				;
			sysmon_idle();
			gmp_sigwake_drain();
			quiet = 0;
			look = gmp_nanotime();
			continue;
		}
		int64_t last = load_acq(&sched.lastpoll);
		if (gmp_netpoll_waiters() > 0 && last != 0 && last + FORCE_POLL_NS < now &&
		    __atomic_compare_exchange_n(&sched.lastpoll, &last, now, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			struct g *list = gmp_netpoll(0);
			if (list) {
				GMP_CTR_NOP_ADD(netpollwakes, gmp_glist_len(list));
				injectglist(list);
				idle = 0;
			}
		}
		int worked = run_timers(now);
		if (now >= scavnext) {
			int64_t begin = gmp_nanotime();
			if (gfree_scavenge(SCAVENGE_BATCH) > 0) {
				int64_t end = gmp_nanotime();
				scavnext = end + (SCAVENGE_PACE - 1) * (end - begin);
			}
		}
		uint64_t a = async_preempts();
		if (a != asyncs) {
			asyncs = a;
			tightuntil = now + TIGHT_NS;
		}
		tight = now < tightuntil;
		woken = woken_waiting();
		bool queued = woken > 0 || gs_queued();
		waiting = queued;
		if (retake(now, woken, queued, tight, &longrun, &lookdue) + worked > 0)
			idle = 0;
		else
			idle++;
		bool loose = gmp_rescue_stragglers(now);
		held = !queued && !loose && !ps_running() && !work_to_watch();
	}
	return NULL;
}

void gmp_sysmon_start(void)
{
	if (ticks == NULL) {
		ticks = calloc((size_t)sched.gomaxprocs, sizeof *ticks);
		gmp_rtsig_init();
	}
	if (ticks == NULL)
		gmp_throw("sysmon: out of memory");
	if (!gmp_start_runtime_thread(sysmon))
		gmp_throw("cannot start sysmon");
}

void sysmon_fork(enum gmp_fork_phase phase)
{
	if (phase != FORK_CHILD)
		return;
	/* sysmon did not survive the fork; its view of the Ps is stale. */
	for (int i = 0; i < sched.gomaxprocs; i++)
		ticks[i] = (struct sysmontick){ 0 };
	sched.sysmonwait = 0;
	sched.sysmonnote = (struct note){ 0 };
	gmp_rtsig_fork();
	gmp_rescue_fork(getg()->m);
	/* Started again when needed (gmp_fork_helpers). */
}
