/* Real-time signals sent to a thread queue on it (gsigq.c), as the
 * kernel queues them: each instance is delivered once, with its own
 * siginfo, in the order sent.  Standard signals keep one pending slot per
 * signal (gsignal.c), as the kernel's do.
 *
 * For a real-time signal sig of G gp, under gp's queue lock:
 *  - sigpending's bit says an instance is pending, the current one; its
 *    siginfo is in fwd[sig - 1] (fwdmask's bit set), and sigfromproc's bit
 *    says whether the process's (a forward) rather than the thread's;
 *  - the instances sent after it wait on gp->sigq, oldest first.
 * Taking the current instance makes the next queued one current.  The
 * lock is taken with every signal blocked on the calling thread: senders
 * and takers run in handlers too (the trampoline, pthread_kill from a
 * handler), and one that interrupted its own thread inside the lock
 * would spin for good. */
#ifndef GMP_GSIGQ_H
#define GMP_GSIGQ_H

#include <signal.h>
#include <stdbool.h>

#include "runtime.h"

/* The kernel's first real-time signal (glibc keeps 32 and 33). */
#define GMP_SIGRT_FIRST 32

static inline bool gmp_sig_queues(int sig)
{
	return sig >= GMP_SIGRT_FIRST;
}

/* An instance of sig for gp: current if none is pending, else queued
 * after the others.  only_new: only if none is pending (EBUSY if one is).
 * 0, or EAGAIN when gp's queue is full (natively RLIMIT_SIGPENDING's
 * answer). */
int gmp_sigq_pend(struct g *gp, int sig, const struct gmp_fwdinfo *info, bool fromproc, bool only_new);
/* Takes gp's current instance of sig (only the process's, with
 * fromproc_only) into *info; false if there is none. */
bool gmp_sigq_take(struct g *gp, int sig, bool fromproc_only, struct gmp_fwdinfo *info);
/* Puts a taken instance back, before every other (a raised one that
 * could not be handled where it landed, or that a sigwait left). */
void gmp_sigq_unget(struct g *gp, int sig, const struct gmp_fwdinfo *info);
/* A new thread, or a fork child's thread: nothing queued, lock free. */
void gmp_sigq_reset(struct g *gp);
/* Takes gp's current instance of sig and raises it on gp's M (gp is the
 * caller's G) with its siginfo, marking sig in *raised, unless *raised
 * has it already: one instance at a time, so that the next cannot wait
 * in this M's kernel queue behind it (blocked by its handler, it would
 * reach whatever G the M runs if that handler parked).  Under the lock,
 * a deliver nested on this thread (the runtime's signal landing) cannot
 * raise the next instance between this one's take and raise.  The
 * siginfo is tkill's own for SI_TKILL, else the kernel's siginfo names
 * where it is kept (gmp_sigq_unwrap gives it back where it lands).
 * False if nothing was raised. */
bool gmp_sigq_raise_next(struct g *gp, int sig, uint64_t *raised);
/* If si is an instance gp raised with gmp_sigq_raise_next, rewrites it
 * to the instance's siginfo and returns true.  gp: the G it landed on. */
bool gmp_sigq_unwrap(struct g *gp, siginfo_t *si);

#endif
