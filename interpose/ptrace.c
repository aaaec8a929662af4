/* ptrace is per kernel thread: the tracer is the thread that attached, or
 * for PTRACE_TRACEME the thread that forked the tracee, and requests from
 * any other thread of the process fail with ESRCH.  A G runs on whichever
 * M holds its P when it resumes, so a G that has become a tracer is
 * locked to its M (shim/proc.c: gmp_lockosthread).  A G's children all
 * have one parent, its fork M (shim/proc.c: gmp_forkm_hop), kept until it
 * has waited for them: its requests are made there, which covers
 * PTRACE_TRACEME.  A tracer's requests that still fail with ESRCH (its
 * children were reaped by another thread, or it forked through
 * posix_spawn, whose child's parent is whatever M ran it) are named under
 * GMPDEBUG=verbose=1. */
#include <errno.h>
#include <stdarg.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "compat/debug.h"
#include "compat/realsym.h"
#include "export.h"
#include "shim/proc.h"
#include "shim/sys.h"

GMP_EXPORT long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	va_start(ap, req);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *), *data = va_arg(ap, void *);
	va_end(ap);
	bool hopped = req != PTRACE_TRACEME && gmp_forkm_hop();
	int saved = errno;
	errno = 0;
	long r = GMP_REAL(ptrace)(req, pid, addr, data);
	/* Peeks return the word read, which may be -1: errno tells. */
	if (errno == 0) {
		errno = saved;
		if (req != PTRACE_TRACEME)
			gmp_lockosthread(GLOCK_TRACER);
		if (hopped)
			gmp_unlockosthread(GLOCK_HOP);
		return r;
	}
	if (hopped)
		gmp_unlockosthread(GLOCK_HOP);
	/* A tracee that exists, traced by another thread of ours. */
	if (r == -1 && errno == ESRCH && req != PTRACE_TRACEME && gmp_syscall(SYS_kill, pid, 0, 0) == 0)
		gmp_unsupported("ptrace: the tracer is the kernel thread that attached; this thread has moved off it");
	return r;
}
