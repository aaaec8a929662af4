/* syscall.c: a G about to block in the kernel keeps its P only until
 * sysmon retakes it (proc.go: entersyscall, exitsyscall, handoffp). */
#ifndef GMP_SYSCALL_H
#define GMP_SYSCALL_H

#include <stdbool.h>

#include "fork.h"
#include "runtime.h"

/* On a G holding its P: the P stays in P_SYSCALL for the M to take back,
 * until sysmon retakes it.  False if nothing was entered (no G, or a call
 * nested in another): then no exitsyscall is owed. */
bool entersyscall(void);
/* On the G that entered: its old P, else an idle one, else it parks in
 * the global queue until schedule finds it a P. */
void exitsyscall(void);
/* pp was taken from an M in a system call (sysmon, or a G leaving its P):
 * an M to run its work, a spinning M, or the idle list.  sched.lock not
 * held. */
void handoffp(struct p *pp);
/* A wait in the kernel that would otherwise park on the netpoller
 * (epoll_wait on the program's epoll fd): unless 8 Ms wait so already or
 * the kernel refuses the runtime threads, enters the syscall and gives
 * the P up at once (proc.go: entersyscallblock), so that the M sleeps in
 * the program's own wait as a native thread does, with no probe and no
 * netpoller round trip.  True: make the call, waking by *wake (the
 * earliest timer if this M is to watch it, ns monotonic, -1: none) at
 * the latest, then call gmp_kernelwait_end.  False: nothing entered, park
 * instead (also when a handler ran earlier in the program's call: the
 * park ends with EINTR, gmp_sig_handled_in_call). */
bool gmp_kernelwait_begin(int64_t *wake);
/* After the call, with the *wake gmp_kernelwait_begin gave.  True if
 * the wait was asked back (gmp_kernelwait_recall): the G parks for the
 * rest of it instead. */
bool gmp_kernelwait_end(int64_t wake);
/* Work is left with no M to run it (the kernel refused the runtime a
 * thread): asks one M in a kernel wait back into the scheduler, with the
 * runtime's signal.  Any context. */
void gmp_kernelwait_recall(void);
void kernelwait_fork(enum gmp_fork_phase phase);
/* After a kernel wait that ended at *wake: runs the due timers' Gs (of
 * every P: the one given up may be another M's now) before this G waits
 * again. */
void gmp_kernelwait_timers(void);
/* A sleep until a CLOCK_MONOTONIC deadline made as a kernel wait, when
 * the G's P has nothing else queued: 0 at the deadline, EINTR when a
 * handler of the program's ran or a cancellation came, -1 when it could
 * not be or was asked back (the caller parks for the rest).  On a G. */
int gmp_kernelwait_sleep(int64_t deadline);
/* A raw system call that may block, made between entersyscall and
 * exitsyscall.  Returns the kernel's result (-errno on failure). */
long gmp_blocking_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
long gmp_syscall_intr(long nr, long a1, long a2, long a3, long a4, long a5, long a6);
/* A system call that points the thread register at the G's own TCB (a
 * program writing back its FS base on x86_64, as some language runtimes
 * do) is the runtime's own switch, made here without the kernel where the
 * CPU allows.  False: not such a call, nothing done. */
bool gmp_sys_own_tcb(long nr, const long a[6]);
#define gmp_blocking_syscall(n, a, b, c) gmp_blocking_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* m->pstolen: sysmon taking the P of an M asleep in a call the shim never
 * saw (rescue.c). */
enum pstolen { PSTOLEN_NONE = 0, PSTOLEN_PENDING = 1, PSTOLEN_TAKEN = 2 };

/* On mp, from its G or a signal handler on it: sysmon began or finished
 * taking its P.  Keeps the P if sysmon has not decided yet; else puts the
 * G in G_SYSCALL without a P, as if it had entered the call itself. */
void gmp_rescue_ack(struct m *mp);

/* Every use of an M's P by its own G starts here: sysmon may have taken
 * it while the M slept in the kernel. */
static inline void gmp_checkp(struct m *mp)
{
	if (__builtin_expect(__atomic_load_n(&mp->pstolen, __ATOMIC_ACQUIRE) != PSTOLEN_NONE, 0))
		gmp_rescue_ack(mp);
}

/* The running G's P.  A G still in a syscall (a call nested in another,
 * or one whose P sysmon took) takes a P back first. */
static inline struct p *gmp_getp(void)
{
	struct g *gp = getg();
	gmp_checkp(gp->m);
	if (__builtin_expect(__atomic_load_n(&gp->status, __ATOMIC_RELAXED) == G_SYSCALL, 0))
		exitsyscall();
	return gp->m->p;
}

/* A libc call that may block in the kernel, made as one blocking system
 * call: entersyscall before it, so that sysmon hands the P on while the M
 * waits, and exitsyscall after (syscall.c). */
#define GMP_BLOCKING_CALL(call)                                                                    \
	({                                                                                         \
		bool gmp_entered_ = entersyscall();                                                \
		__typeof__(call) gmp_r_ = (call);                                                  \
		if (gmp_entered_)                                                                  \
			exitsyscall();                                                             \
		gmp_r_;                                                                            \
	})

/* A library wait that ends with EINTR for any signal, not only for one
 * with a handler of the program's (liburing's waits, glibc's sem_wait on
 * a shared semaphore), made as GMP_BLOCKING_CALL.  The runtime's own
 * signal, sent while the G still ran (a preemption), may be taken only
 * as the G enters that wait; natively it would have gone on, so it goes
 * on: made again while no handler of the program's ran since it began.
 * interrupted(r): whether result r is that EINTR. */
#define GMP_BLOCKING_WAIT(call, interrupted)                                                      \
	({                                                                                         \
		struct g *gmp_g_ = getg();                                                         \
		uint32_t gmp_mark_ = gmp_g_ ? gmp_g_->nhandled : 0;                                \
		__typeof__(call) gmp_w_;                                                           \
		do                                                                                 \
			gmp_w_ = GMP_BLOCKING_CALL(call);                                          \
		while (interrupted(gmp_w_) && gmp_g_ && gmp_g_->nhandled == gmp_mark_);            \
		gmp_w_;                                                                            \
	})

#endif
