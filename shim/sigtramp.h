/* The trampoline (sigtramp.c): the kernel's action for every signal the
 * program handles, which finds the G the signal is for. */
#ifndef GMP_SIGTRAMP_H
#define GMP_SIGTRAMP_H

#include <signal.h>


void gmp_sigtramp(int sig, siginfo_t *si, void *uc);
struct sigaction *gmp_sigtramp_action(int sig);
/* Makes *k, a program's action that runs a function, the kernel's action
 * that runs it through the trampoline. */
void gmp_sigtramp_kernel_action(struct sigaction *k);
/* A process-directed signal a thread took but now blocks, or exits with
 * (gsignal.c, gmp_sig_retarget): to another thread that takes it, else
 * pending on the process, sent by f's sender as far as a handler or a
 * sigwait later sees (gmp_sigtramp_sender). */
struct gmp_fwdinfo;
void gmp_sigtramp_retarget(int sig, const struct gmp_fwdinfo *f);
void gmp_sigtramp_sender(int sig, siginfo_t *si);
void gmp_sigtramp_lock(void);
void gmp_sigtramp_unlock(void);

#endif
