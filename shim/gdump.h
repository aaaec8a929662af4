/* Dumps (gdump.c): every thread's state and stack on SIGQUIT, a fault or
 * GMP_DUMP_SIGNAL, and the stop-the-world that holds the Ms still for it. */
#ifndef GMP_GDUMP_H
#define GMP_GDUMP_H

#include <signal.h>
#include <stdbool.h>

#include "fork.h"

/* gdump.c: signals whose default action is the runtime's (SIGQUIT, the
 * fault signals, GMP_DUMP_SIGNAL).  interpose/signal.c: SIG_DFL from the
 * program becomes our action for the kernel (gmp_dump_default_action), and
 * our action read back is reported as SIG_DFL (gmp_dump_hide). */
bool gmp_dump_signal_owned(int sig);
bool gmp_dump_default_action(int sig, const struct sigaction *act, struct sigaction *k);
void gmp_dump_hide(struct sigaction *old);
/* sigaction set sig's action: the dump's own (ours) or the program's
 * (GMP_DUMP_SIGNAL gets through the program's masks only while ours). */
void gmp_dump_action_changed(int sig, bool ours);
/* An M asked to stop for a dump (SIGREQ_DUMPSTOP, from the runtime's
 * signal handler): publishes uc and waits until the dump is over. */
void gmp_dump_serve_stop(void *uc);
void gmp_dump_init(void);
void gmp_dump_fork(enum gmp_fork_phase phase);

#endif
