/* Wake-ups requested from signal handlers (sigwake.c). */
#ifndef GMP_SIGWAKE_H
#define GMP_SIGWAKE_H

#include <stdint.h>

#include "runtime.h"

/* Embedded in the object whose futex word is to be woken (16 bytes, zero
 * when idle). */
struct gmp_sigwake {
	uint32_t pending;          /* wake-ups requested and not yet done */
	int32_t off;               /* the futex word is at (char *)this - off */
	struct gmp_sigwake *next;  /* on the deferred stack while pending */
};

/* Signal handlers of the program running right now (interpose/signal.c
 * wraps them); while non-zero, wake-ups that can come from a handler are
 * deferred. */
extern uint32_t gmp_sigdepth;

/* Asks for one wake-up of a G parked on addr, without touching any lock or
 * scheduler state: async-signal-safe from any thread and any context. */
void gmp_sigwake_defer(struct gmp_sigwake *w, const uint32_t *addr);
/* Asks sysmon to interrupt gp's wait for a signal now pending on it
 * (gmp_sig_parked), from a signal handler. */
void gmp_sigwake_interrupt(struct g *gp);
/* Ends sysmon's gmp_sigwake_sleep now (one system call unless a kick is
 * already pending); async-signal-safe. */
void gmp_sigwake_kick(void);
/* Waits until a wake-up is deferred, a kick comes or ns pass; on sysmon. */
void gmp_sigwake_sleep(int64_t ns);
/* Whether a wake-up was deferred since the last drain (sysmon, before it
 * sleeps for good). */
bool gmp_sigwake_pending(void);
/* Performs the deferred wake-ups (sysmon: off any P). */
void gmp_sigwake_drain(void);
/* Whether w still has a wake-up queued (for destroy). */
static inline bool gmp_sigwake_busy(struct gmp_sigwake *w)
{
	return __atomic_load_n(&w->pending, __ATOMIC_ACQUIRE) != 0;
}
void sigwake_fork(enum gmp_fork_phase phase);

#endif
