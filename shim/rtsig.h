/* The runtime's signal (rtsig.c): one signal number (GMP_PREEMPTSIG,
 * SIGURG by default) carries every request the runtime sends an M, tagged
 * so that the program's own instances of that signal still reach it. */
#ifndef GMP_RTSIG_H
#define GMP_RTSIG_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime.h"

enum gmp_sigreq { SIGREQ_PREEMPT = 1, SIGREQ_DELIVER = 3, SIGREQ_IDLEMASK = 4, SIGREQ_DUMPSTOP = 5,
		  SIGREQ_CANCEL = 6 };

extern int gmp_preemptsig;      /* GMP_PREEMPTSIG; atomic once the runtime runs */
extern bool gmp_preemptsig_fixed; /* GMP_PREEMPTSIG named it: it never moves */
extern int gmp_pid;        /* getpid(), renewed in a fork child */

/* Installs the handler, keeping the program's earlier action for it. */
void gmp_rtsig_init(void);
void gmp_rtsig_fork(void);
/* Sends req to mp's thread; false if the kernel refused. */
bool gmp_sigsend(struct m *mp, enum gmp_sigreq req);
/* Whether a siginfo is one of the runtime's own requests (sigwait and
 * signalfd readers must never see them). */
bool gmp_sig_is_runtime(const siginfo_t *si);
/* The same for a signalfd record's fields. */
bool gmp_sigfd_is_runtime(int32_t code, uint32_t pid, uint64_t ptr);
/* The G this M was running when the signal landed, if it landed on that
 * G's own stack while the G was on this M; else NULL.  In a handler. */
struct g *gmp_signal_g(void *uc);
/* Runs the program's action for an instance of the signal that is not
 * the runtime's. */
void gmp_preempt_handler_chain(int sig, void *info, void *uc);
/* sigaction for the runtime's signal, from the program: the kernel keeps
 * our handler; the program's action is stored and reported back. */
void gmp_preemptsig_action(const struct sigaction *act, struct sigaction *old);
/* The program installs a function of its own for sig, the runtime's
 * signal.  A standard signal does not queue: the program's instances and
 * the runtime's requests would merge and one of them be lost.  Unless
 * GMP_PREEMPTSIG named it, the runtime moves to a realtime signal that
 * nobody handles, and sig becomes the program's like any other: returns
 * true, with the program's earlier action for sig in *prev.  False: the
 * runtime keeps sig (named, or no realtime signal free). */
bool gmp_rtsig_move(int sig, struct sigaction *prev);
/* The program takes the signals of set synchronously (signalfd, sigwait),
 * where every instance must stay pending until it reads it (PostgreSQL's
 * latches: kill(pid, SIGURG) from another process, read from a
 * signalfd); a signal the runtime never blocks in the kernel cannot.  If
 * set has the runtime's signal and that is SIGURG (whose default,
 * ignore, is what the trampoline does for SIG_DFL), the runtime moves off
 * it, as for a handler, and the program's action stays behind the
 * trampoline.  False if the runtime keeps a signal of set. */
bool gmp_rtsig_take_sync(const sigset_t *set);
/* The runtime's handler, for a request that arrives on a signal the
 * runtime has moved off (the trampoline sees it: gmp_sig_is_runtime). */
void gmp_rtsig_dispatch(int sig, siginfo_t *si, void *uc);

#endif
