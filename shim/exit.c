/* What NPTL's start_thread does after the thread function returns (or
 * pthread_exit's unwind reached the thread's entry, unwind_exit.c), in the
 * same order: C++ thread_local destructors, then pthread key destructors,
 * then the thread is gone; the last thread to go ends the process. */
#include <stdlib.h>

#include "compat/tls.h"
#include "exit.h"
#include "futex.h"
#include "gsignal.h"
#include "keys.h"
#include "proc.h"
#include "robust.h"
#include "rtprio.h"
#include "runtime.h"

void gmp_thread_exit(void *retval)
{
	struct g *gp = getg();
	uint32_t *ch = gmp_tls_cancelhandling(gp->tcb);
	/* No cancellation acts in the destructors below (NPTL's EXITING). */
	__atomic_or_fetch(ch, CH_EXITING, __ATOMIC_SEQ_CST);
	gp->retval = retval;
	gmp_tls_call_dtors();
	gmp_keys_run_destructors(gp);
	gmp_sigmask_count(gp->sigmask, -1);
	/* Last, as the kernel's robust-list walk comes after everything a
	 * dying NPTL thread runs. */
	gmp_robust_exit(gp);
	gmp_futex_pi_exit(gp);
	gmp_futex_robust_exit(gp);
	gmp_futex_cleartid_exit(gp);
	gmp_rt_exit(gp);
	/* A pthread_cancel from now on, until the G is joined, does nothing. */
	__atomic_or_fetch(ch, CH_TERMINATED, __ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&sched.ngs, 1, __ATOMIC_ACQ_REL) == 0)
		exit(0);
	gmp_sig_exit(gp);
	gmp_sigmask_recheck();
	goexit();
}
