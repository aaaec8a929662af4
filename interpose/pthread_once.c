#include <pthread.h>

#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/sema.h"

enum { ONCE_INIT = 0, ONCE_RUNNING = 1, ONCE_DONE = 2, ONCE_RUNNING_WAITERS = 3 };

/* An init routine that is cancelled leaves the once as if never run
 * (POSIX): the next caller runs it, and waiters wake to try. */
static void once_cancelled(void *arg)
{
	uint32_t *w = arg;
	if (__atomic_exchange_n(w, ONCE_INIT, __ATOMIC_ACQ_REL) == ONCE_RUNNING_WAITERS)
		gmp_futexwake(w, 1 << 30);
}

GMP_EXPORT int pthread_once(pthread_once_t *once, void (*init)(void))
{
	uint32_t *w = (uint32_t *)once;
	for (;;) {
		uint32_t v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
		if (v == ONCE_DONE)
			return 0;
		if (v == ONCE_INIT) {
			if (!__atomic_compare_exchange_n(w, &v, ONCE_RUNNING, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;
			pthread_cleanup_push(once_cancelled, w);
			init();
			pthread_cleanup_pop(0);
			if (__atomic_exchange_n(w, ONCE_DONE, __ATOMIC_ACQ_REL) == ONCE_RUNNING_WAITERS)
				gmp_futexwake(w, 1 << 30);
			return 0;
		}
		gmp_ensure_init();
		if (v == ONCE_RUNNING &&
		    !__atomic_compare_exchange_n(w, &v, ONCE_RUNNING_WAITERS, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		gmp_cancel_async_point();
		gmp_futexwait(w, ONCE_RUNNING_WAITERS, -1, WAIT_ONCE);
	}
}

GMP_EXPORT int __pthread_once(pthread_once_t *once, void (*init)(void)) __attribute__((alias("pthread_once")));
