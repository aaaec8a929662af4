/* pthread_cancel, pthread_setcancelstate, pthread_setcanceltype,
 * pthread_testcancel.  The state is glibc's cancelhandling word in the
 * calling thread's TCB (shim/cancel.h); delivery is shim/cancel.c, the
 * unwind compat/unwind_exit.c. */
#include <errno.h>
#include <pthread.h>

#include "compat/tls.h"
#include "compat/unwind_exit.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/registry.h"
#include "shim/runtime.h"
#include "shim/sys.h"

GMP_EXPORT int pthread_cancel(pthread_t t)
{
	gmp_ensure_init();
	gmp_main_adopt_record(); /* main may be cancelling itself */
	struct g *gp = gmp_registry_get((void *)t);
	if (gp == NULL)
		return ESRCH;
	/* Now, not in a signal handler acting on an asynchronous request. */
	gmp_unwind_load();
	return gmp_cancel(gp);
}

/* Sets or clears bit in the caller's word; acts if that made an
 * asynchronous cancellation due (POSIX: at once). */
static int set_cancel_bit(uint32_t bit, bool on, int *old)
{
	gmp_ensure_init();
	gmp_main_adopt_record();
	struct g *gp = getg();
	uint32_t *chp = gmp_tls_cancelhandling(gmp_self_tcb());
	uint32_t ch = __atomic_load_n(chp, __ATOMIC_SEQ_CST), nw;
	do
		nw = on ? ch | bit : ch & ~bit;
	while (nw != ch && !__atomic_compare_exchange_n(chp, &ch, nw, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	if (old)
		*old = (ch & bit) != 0;
	if (gp && (nw & CH_DISABLED))
		/* A request stays pending in CANCELED; nothing of a past
		 * cancellation point's interruption may outlive this. */
		__atomic_store_n(&gp->cancelkick, 0, __ATOMIC_SEQ_CST);
	if (gp && gmp_cancel_due(nw) && (nw & CH_ASYNC)) {
		gmp_unwind_load();
		gmp_cancel_act();
	}
	return 0;
}

GMP_EXPORT int pthread_setcancelstate(int state, int *oldstate)
{
	if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE)
		return EINVAL;
	return set_cancel_bit(CH_DISABLED, state == PTHREAD_CANCEL_DISABLE, oldstate);
}

GMP_EXPORT int pthread_setcanceltype(int type, int *oldtype)
{
	if (type != PTHREAD_CANCEL_DEFERRED && type != PTHREAD_CANCEL_ASYNCHRONOUS)
		return EINVAL;
	if (type == PTHREAD_CANCEL_ASYNCHRONOUS)
		gmp_unwind_load(); /* the handler that may act cannot dlopen */
	return set_cancel_bit(CH_ASYNC, type == PTHREAD_CANCEL_ASYNCHRONOUS, oldtype);
}

GMP_EXPORT void pthread_testcancel(void)
{
	gmp_ensure_init();
	GMP_CANCEL_POINT;
}
