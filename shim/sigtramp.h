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
void gmp_sigtramp_lock(void);
void gmp_sigtramp_unlock(void);

#endif
