/* Spinlocks: glibc's trylock, unlock, init and destroy are plain atomics
 * and stay; lock must not spin forever on a holder that is parked on the
 * same P, so after a bounded spin it yields the G.  The lock word's values
 * are glibc's (compat/layout.h). */
#include <pthread.h>

#include "compat/layout.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/preempt.h"
#include "shim/proc.h"
#include "shim/runtime.h"
#include "shim/sys.h"

GMP_EXPORT int pthread_spin_lock(pthread_spinlock_t *l)
{
	for (;;) {
		for (int i = 0; i < 1000; i++) {
			int unlocked = GMP_SPIN_UNLOCKED;
			if (__atomic_load_n(l, __ATOMIC_RELAXED) == GMP_SPIN_UNLOCKED &&
			    __atomic_compare_exchange_n(l, &unlocked, GMP_SPIN_LOCKED, 0, __ATOMIC_ACQUIRE,
							__ATOMIC_RELAXED))
				return 0;
			gmp_spin_pause();
		}
		if (gmp_initialized) {
			gmp_cancel_async_point();
			/* A signal that came while it spun here, in the shim's
			 * code, waits on the G (gmp_sig_must_wait): natively its
			 * handler runs in the spin (one that exits the thread, or
			 * the process, on a lock that never comes free). */
			gmp_preempt_point();
			gosched();
		}
	}
}
