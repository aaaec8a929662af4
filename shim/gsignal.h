/* Per-G signal masks (gsignal.c): what the scheduler needs inline. */
#ifndef GMP_GSIGNAL_H
#define GMP_GSIGNAL_H

#include <signal.h>

#include "rtsig.h"
#include "runtime.h"

#define SIGBIT(s) (1ull << ((s) - 1))

void gmp_sigmask_setm(struct m *mp, uint64_t want);

/* The runtime's own signals: its requests (preemption, dump stops) and
 * GMP_DUMP_SIGNAL while the dump handles it.  Never blocked in the
 * kernel, whatever masks the program sets (those are per G and virtual:
 * a G that blocks one still has it in its own mask). */
extern uint64_t gmp_unblockable;
void gmp_sig_unblockable(int sig, bool on);

/* The M takes the mask of the G it is about to run (with what the
 * handler it was preempted in blocks, until that handler returns), less
 * the runtime's own signals, which stay deliverable. */
static inline void gmp_sigmask_load(struct m *mp, struct g *gp)
{
	uint64_t want = (gp->sigmask | gp->sighmask) & ~__atomic_load_n(&gmp_unblockable, __ATOMIC_RELAXED);
	if (__builtin_expect(want != mp->sigmask, 0))
		gmp_sigmask_setm(mp, want);
}

/* May mp block in the kernel for a while with its G's mask?  Only if
 * every G blocks what it blocks.  A process-directed signal that this G
 * blocks and a parked G takes needs a thread that lets it through, and
 * an idle M's mask is refreshed only when it next goes idle: with the M
 * that kept going idle asleep in the kernel instead, the signal waited
 * for good (one P, a G that blocks SIGALRM sleeping 1 ms at a time while
 * the G with the handler waits for a mutex: tests/integration
 * sysv_oneshot_1p and signal_matrix_1p). */
bool gmp_sigmask_may_wait(struct m *mp);
/* The runtime signal's request to reload an idle M's mask. */
void gmp_sigmask_idle_signal(void *uc);
/* Around the trampoline's work for a signal that landed on g0 with no G:
 * the outermost leave gives the context it returns to the idle mask.
 * _enter returns NULL where there is nothing to do. */
struct m *gmp_sigmask_tramp_enter(void *uc);
void gmp_sigmask_tramp_leave(struct m *mp, void *uc);
int gmp_sigmask_change(int how, const uint64_t *set, uint64_t *old);
bool gmp_sig_deliver_pending(void);
void gmp_sig_deliver_signal(void *uc);
/* A G's mask as one of its handlers begins, and the kernel's (the
 * context the handler returns to): the trampoline gives them back as the
 * handler returns. */
struct gmp_hmask {
	uint64_t g, uc;
};
struct gmp_hmask gmp_sig_handler_enter(struct g *gp, void *uc);
void gmp_sig_handler_return(void *uc, struct gmp_hmask before);
/* The signals pending on gp that it is ready to take now: those its mask
 * lets through, and those a sigwait of its waits for. */
static inline uint64_t gmp_sig_deliverable(struct g *gp)
{
	return __atomic_load_n(&gp->sigpending, __ATOMIC_SEQ_CST) &
	       (~gp->sigmask | __atomic_load_n(&gp->sigwaitset, __ATOMIC_SEQ_CST));
}

/* entersyscall and exitsyscall change the G's status and its M's P in
 * several steps.  A handler of the program's run between them (libuv's
 * SIGCHLD handler writes to its self-pipe) makes a call whose own
 * exitsyscall takes a P and makes the G running halfway through, and the
 * first call then finished on that state: an M without a P running a G,
 * two Ps on one M, "bad G status transition" (Node.js; a storm of
 * signals whose handler writes a pipe, sent to threads in waitpid: 2
 * runs in 5 died).  So a signal of the program's landing in between
 * stays pending on the G (gmp_sig_hold_signal) and is raised once the
 * change is done. */
static inline void gmp_sig_hold(struct g *gp)
{
	gp->sighold = true;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void gmp_sig_release(struct g *gp)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	gp->sighold = false;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(gmp_sig_deliverable(gp) != 0, 0))
		gmp_sig_deliver_pending();
}

/* Whether a signal of the program's that lands on the running gp must
 * wait on it rather than run its handler now: natively the kernel's
 * work is never interrupted by a handler, and here the runtime's code
 * stands for it.  A handler run there finds the runtime halfway through
 * a change (a mutex's waiter taken off its queue, not yet readied), and
 * one that waits (a collector's suspend handler, in sigsuspend until the
 * collector resumes it) keeps that change, and any runtime lock held,
 * from every thread, the collector's too.  So it waits while the G holds
 * a runtime lock, and while it runs the runtime's code other than a
 * blocking call a signal ends, unless raised (deliver raised it, at a
 * point meant for it); sysmon asks for it again until it lands on the
 * program's code, or the G takes it at such a point first. */
bool gmp_sig_must_wait(struct g *gp, void *uc, bool raised);
/* The trampoline, for a signal landing on gp that must wait; raised: one
 * gp raised on itself (its siginfo the instance's). */
void gmp_sig_hold_signal(struct g *gp, int sig, const siginfo_t *si, bool process, bool raised);

int gmp_sigwait_kernel(const void *set, siginfo_t *info, const struct timespec *ts);
/* 0, or EAGAIN: a real-time signal that gp's queue has no room for. */
int gmp_sig_send(struct g *self, struct g *gp, int sig);
int gmp_sig_send_info(struct g *self, struct g *gp, int sig, const struct gmp_fwdinfo *info);
bool gmp_sig_forward(struct g *gp, int sig, const struct gmp_fwdinfo *info);
void gmp_sig_unpinned(struct g *gp);
/* The sender's part of a siginfo, and back: makes *si say it came from
 * f's sender. */
static inline struct gmp_fwdinfo gmp_fwdinfo_of(const siginfo_t *si)
{
	return (struct gmp_fwdinfo){ si->si_code, si->si_pid, si->si_uid, si->si_value };
}

static inline void gmp_fwdinfo_apply(siginfo_t *si, const struct gmp_fwdinfo *f)
{
	si->si_code = f->code;
	si->si_pid = f->pid;
	si->si_uid = f->uid;
	si->si_value = f->value;
}
void gmp_sig_retarget(struct g *gp);
void gmp_sig_exit(struct g *gp);
/* The self gmp_sig_send wants for a signal sent to target by the caller. */
struct g *gmp_sig_sender(struct g *target);
/* tgkill, tkill and rt_tgsigqueueinfo (info) to a G named by its TID, as
 * pthread_kill and pthread_sigqueue send them: 0 or -errno; 1 if tid
 * names no G (the kernel's). */
int gmp_sig_tid_send(pid_t tid, int sig, const siginfo_t *info);
void gmp_sig_parked(struct m *mp, struct g *gp);

/* Whether a handler of the program's ran on gp since its blocking call
 * (a cancellation point's scope, cancel.h) began, and no wait of that call
 * has said EINTR since.  Natively such a call is in the kernel all along
 * and the signal ends or restarts it; here the G may have been between two
 * waits of the call (a kernel wait woken for a timer it watches, or asked
 * back into the scheduler; a poll woken by an edge that was not its own),
 * or running the handler as it resumed from one, and its next wait slept
 * through the signal (epoll_wait ran to its timeout in 1-6 of 100 trials:
 * tests/integration/signal_in_wait).  So the next wait of the call that a
 * signal ends natively (gmp_sig_parked, gmp_kernelwait_begin) ends at once
 * with EINTR, which its caller takes as a signal that came during the
 * wait: EINTR, or a restart with SA_RESTART. */
static inline bool gmp_sig_handled_in_call(const struct g *gp)
{
	return gp->cancelpoint != 0 && gp->nhandled != gp->callmark;
}

/* A handler of the program's has just returned on gp: the wait of a
 * blocking call it ended restarts only if every such handler asked for
 * it (SA_RESTART, signal(7)).  Told by the handler, after it ran, not by
 * whoever raised the signal: that one may have returned before the
 * signal was taken (qemu-user takes a signal at its next block of code),
 * and an overwrite of the answer there made a read that a handler
 * without SA_RESTART interrupted go back to its wait for good
 * (tests/integration/signal_takers under qemu, 1 run in 10).  The blocking call
 * clears the answer as it begins; it is only ever lowered, and a call that
 * sees it lowered ends. */
static inline void gmp_sig_handled(struct g *gp, int sa_flags)
{
	if (!(sa_flags & SA_RESTART))
		gp->sigrestart = false;
}

/* mcall, on a G inside a handler of the program's (a sleep or a read in
 * it, a system call that lost its P): the kernel blocks on its M what the
 * handler's action blocks, which the M's record did not say, so the next
 * G there kept it (a SIGUSR2 handler that slept left SIGUSR2 blocked on
 * that M, and a later thread's SIGUSR2 was never taken:
 * tests/integration/signal_restart).  The record and the G's handler mask
 * now say it: the next G loads its own mask, and the G resumes, on
 * whichever M, with the handler's. */
void gmp_sig_switch_in_handler(struct g *gp);

/* A wait of the call said EINTR: the handlers run so far are answered. */
static inline void gmp_sig_call_answered(struct g *gp)
{
	gp->callmark = gp->nhandled;
}


/* Whether gp stopped with its frames on its own alternate stack (switched
 * out by a preemption taken there).  Signals let in there would nest on
 * that stack, whatever their action: the M that resumes it keeps every
 * one blocked (execute), and gp's handler unblocks them by returning,
 * off that stack. */
static inline bool gmp_altstack_on(const struct gmp_altstack *a, uintptr_t sp)
{
	return sp - (uintptr_t)a->sp < a->size;
}

static inline bool gmp_altstack_in_use(const struct g *gp, uintptr_t sp)
{
	return gmp_altstack_on(&gp->altstack, sp);
}

/* Every signal blocked on mp, as in a handler of the runtime's. */
#define GMP_SIGMASK_ALL (~0ull & ~(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP)))

void gmp_sigmask_count(uint64_t mask, int delta);
void gmp_sigmask_idle(struct m *mp);
void gmp_sigmask_recheck(void);
struct m *gmp_signal_g0(void *uc);
/* A handler that landed on g0 runs on the M's own TLS: the thread
 * pointer there may still name a G running on another M.  _leave puts
 * back the register's value, not m->curfs (gsignal.c). */
struct gmp_g0tls {
	struct m *m; /* NULL: the signal did not land on g0 */
	void *tp;
};
struct gmp_g0tls gmp_g0tls_enter(void *uc);
void gmp_g0tls_leave(struct gmp_g0tls t);
/* Blocks on the calling thread what the runtime's own threads block,
 * returning the mask it had, for gmp_restore_signals. */
uint64_t gmp_block_signals(void);
void gmp_restore_signals(uint64_t old);
void gmp_sig_fork_child(struct g *gp);
/* A blocking call with a signal mask of its own (gsignal.c). */
struct gmp_sigcall {
	uint64_t kmask;   /* the mask to hand the kernel */
	uint64_t saved;
	bool entered;
};
void gmp_sig_masked_enter(struct gmp_sigcall *c, const void *mask);
void gmp_sig_masked_exit(struct gmp_sigcall *c);

#endif
