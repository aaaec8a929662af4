#include <errno.h>
#include <pthread.h>

#include "export.h"
#include "shim/cancel.h"
#include "shim/runtime.h"

int gmp_join(const void *thread, void **retval, int64_t deadline);

GMP_EXPORT int pthread_join(pthread_t t, void **retval)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	return gmp_join((const void *)t, retval, -1);
}

GMP_EXPORT int pthread_tryjoin_np(pthread_t t, void **retval)
{
	gmp_ensure_init();
	return gmp_join((const void *)t, retval, -2);
}

GMP_EXPORT int pthread_clockjoin_np(pthread_t t, void **retval, clockid_t clk, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	gmp_ensure_init();
	if (abstime == NULL)
		return gmp_join((const void *)t, retval, -1);
	int err = 0;
	int64_t deadline = gmp_abs_deadline(clk, abstime, &err);
	if (err)
		return err;
	return gmp_join((const void *)t, retval, deadline);
}

GMP_EXPORT int pthread_timedjoin_np(pthread_t t, void **retval, const struct timespec *abstime)
{
	GMP_CANCEL_POINT;
	return pthread_clockjoin_np(t, retval, CLOCK_REALTIME, abstime);
}
