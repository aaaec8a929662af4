#include <errno.h>
#include <pthread.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/foreign.h"
#include "shim/init.h"
#include "shim/syscall.h"
#include "shim/thread.h"

/* A foreign thread (shim/foreign.c) is glibc's to join; its join blocks
 * the M. */
GMP_EXPORT int pthread_join(pthread_t t, void **retval)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	int err = gmp_join((const void *)t, retval, -1);
	if (err == ESRCH && gmp_foreign_tcb((const void *)t))
		err = GMP_BLOCKING_CALL(GMP_REAL(pthread_join)(t, retval));
	return err;
}

GMP_EXPORT int pthread_tryjoin_np(pthread_t t, void **retval)
{
	gmp_ensure_init();
	int err = gmp_join((const void *)t, retval, -2);
	if (err == ESRCH && gmp_foreign_tcb((const void *)t))
		err = GMP_REAL(pthread_tryjoin_np)(t, retval);
	return err;
}

GMP_EXPORT int pthread_clockjoin_np(pthread_t t, void **retval, clockid_t clk, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	int err = 0;
	int64_t deadline = abstime == NULL ? -1 : gmp_abs_deadline(clk, abstime, &err);
	if (err)
		return err;
	err = gmp_join((const void *)t, retval, deadline);
	if (err == ESRCH && gmp_foreign_tcb((const void *)t))
		err = GMP_BLOCKING_CALL(GMP_REAL(pthread_clockjoin_np)(t, retval, clk, abstime));
	return err;
}

GMP_EXPORT int pthread_timedjoin_np(pthread_t t, void **retval, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	return pthread_clockjoin_np(t, retval, CLOCK_REALTIME, abstime);
}
