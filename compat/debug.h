/* Diagnostics that are safe anywhere, including on g0 with a stale FS base:
 * they format into a stack buffer and use raw write(2). */
#ifndef GMP_DEBUG_H
#define GMP_DEBUG_H

#include <stdarg.h>

/* GMPDEBUG=... settings, parsed once at start-up (env.c). */
struct gmp_debug {
	int verbose; /* GMPDEBUG=verbose=1: one line per unsupported call */
	int schedtrace;  /* GMPDEBUG=schedtrace=N: a scheduler line every N ms */
	int scheddetail; /* GMPDEBUG=scheddetail=1: and one per P, M and G */
	int noguardinstall; /* GMPDEBUG=guardinstall=0: stacks as on a kernel without MADV_GUARD_INSTALL */
	int noprocreader;   /* GMPDEBUG=procreader=0: /proc looks on the caller, in the program's fd table */
	int nortprio;       /* GMPDEBUG=rtprio=0: realtime policies kept and reported only, as before issue 19 */
	int nodrainpark;    /* GMPDEBUG=drainpark=0: every blocking read tries the call before it parks */
	int noevmask;       /* GMPDEBUG=evmask=0: a poll of one fd probes again after each wake, as before stop 48 */
	int noreadlook;     /* GMPDEBUG=readlook=0: a poll after a read that said EAGAIN polls before it parks, as before stop 49 */
	int lazycpuclock;   /* GMPDEBUG=cpuclock=0: per-thread CPU accounting from the first ask, as before stop 45 */
	int nospinwait;     /* GMPDEBUG=spinwait=0: a G preempted in a spin-wait loop gets the usual slices */
};
extern struct gmp_debug gmp_debug;

void gmp_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An invariant of the runtime broke: say what, then abort the process
 * rather than run on with corrupted scheduler state. */
void gmp_throw(const char *what) __attribute__((noreturn));
/* A feature the shim does not support was used: one line under GMPDEBUG. */
void gmp_unsupported(const char *what);

#endif
