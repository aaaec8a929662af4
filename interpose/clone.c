/* glibc's clone() wrapper.  A child that shares our memory (CLONE_VM)
 * and, without CLONE_SETTLS, our thread pointer gets a TLS of its own
 * first, so that the runtime sees a foreign thread, not the caller's G
 * (shim/foreign.h).  CLONE_VFORK suspends the caller's task until the
 * child execs or exits: the G gives its P up meanwhile. */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/syscall.h"

GMP_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	if (!gmp_initialized || getg() == NULL || !(flags & CLONE_VM) || (flags & CLONE_SETTLS) || fn == NULL)
		return GMP_REAL(clone)(fn, stack, flags, arg, ptid, tls, ctid);
	struct gmp_clone_start *cs = gmp_foreign_clone(fn, arg, flags);
	if (cs == NULL)
		return errno = ENOMEM, -1;
	if (flags & CLONE_VFORK)
		return GMP_BLOCKING_CALL(GMP_REAL(clone)(gmp_foreign_clone_entry, stack, flags, cs, ptid, tls, ctid));
	return GMP_REAL(clone)(gmp_foreign_clone_entry, stack, flags, cs, ptid, tls, ctid);
}
