/* Spinlocks: glibc's trylock, unlock, init and destroy are plain atomics
 * and stay; lock must not spin forever on a holder that is parked on the
 * same P, so after a bounded spin it yields the G.  x86_64 glibc counts
 * down: 1 is unlocked, 0 or less locked. */
#include <pthread.h>

#include "export.h"
#include "shim/cancel.h"
#include "shim/proc.h"
#include "shim/runtime.h"
#include "shim/sys.h"

GMP_EXPORT int pthread_spin_lock(pthread_spinlock_t *l)
{
	for (;;) {
		for (int i = 0; i < 1000; i++) {
			int one = 1;
			if (__atomic_load_n(l, __ATOMIC_RELAXED) == 1 &&
			    __atomic_compare_exchange_n(l, &one, 0, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return 0;
			gmp_spin_pause();
		}
		if (gmp_initialized) {
			gmp_cancel_async_point();
			gosched();
		}
	}
}
