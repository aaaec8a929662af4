/* The signals whose default action is the dump's (dumpsig.c). */
#ifndef GMP_DUMPSIG_H
#define GMP_DUMPSIG_H

#include <signal.h>
#include <stdbool.h>

/* Installs the dump's action on SIGQUIT, GMP_DUMP_SIGNAL and the fault
 * signals where the program kept the default; once, at start. */
void gmp_dumpsig_init(void);
/* interpose/signal.c: SIG_DFL from the program becomes our action for the
 * kernel (gmp_dump_default_action), and our action read back is reported
 * as SIG_DFL (gmp_dump_hide). */
bool gmp_dump_signal_owned(int sig);
bool gmp_dump_default_action(int sig, const struct sigaction *act, struct sigaction *k);
void gmp_dump_hide(struct sigaction *old);
/* sigaction set sig's action: the dump's own (ours) or the program's
 * (GMP_DUMP_SIGNAL gets through the program's masks only while ours). */
void gmp_dump_action_changed(int sig, bool ours);

#endif
