/* SIGURG belongs to the runtime (rescue.c, and preemption): the program's
 * own SIGURG action is kept aside and called for every SIGURG that is not
 * the runtime's, so the program sees the action it set. */
#include <signal.h>
#include <string.h>

#include "export.h"
#include "shim/runtime.h"

GMP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGURG || !gmp_initialized)
		return GMP_REAL(sigaction)(sig, act, old);
	gmp_sigurg_action(act, old);
	return 0;
}

static __sighandler_t set_handler(int sig, __sighandler_t h, int flags)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = h;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* glibc's signal() has BSD semantics and calls sigaction internally, out
 * of our sight. */
GMP_EXPORT __sighandler_t signal(int sig, __sighandler_t h)
{
	if (sig != SIGURG || !gmp_initialized)
		return GMP_REAL(signal)(sig, h);
	return set_handler(sig, h, SA_RESTART);
}

GMP_EXPORT __sighandler_t bsd_signal(int sig, __sighandler_t h) __attribute__((alias("signal")));
