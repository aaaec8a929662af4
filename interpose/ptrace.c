/* ptrace is per kernel thread: the tracer is the thread that attached, or
 * for PTRACE_TRACEME the thread that forked the tracee, and requests from
 * any other thread of the process fail with ESRCH.  A G runs on whichever
 * M holds its P when it resumes, so a tracer's requests after its first
 * park come from another kernel thread: gdb under the shim cannot run a
 * program ("Couldn't get registers: No such process").  Keeping such a G
 * on its M (Go's LockOSThread) is not done (docs/compat.md); the failure
 * stays the kernel's ESRCH, named under GMPDEBUG=verbose=1. */
#include <errno.h>
#include <stdarg.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "compat/debug.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/sys.h"

GMP_EXPORT long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	va_start(ap, req);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *), *data = va_arg(ap, void *);
	va_end(ap);
	long r = GMP_REAL(ptrace)(req, pid, addr, data);
	/* A tracee that exists, traced by another thread of ours. */
	if (r == -1 && errno == ESRCH && req != PTRACE_TRACEME && gmp_syscall(SYS_kill, pid, 0, 0) == 0)
		gmp_unsupported("ptrace: the tracer is the kernel thread that attached; this thread has moved off it");
	return r;
}
