/* The lock word behind pthread mutexes: 0 unlocked, 1 locked, 2 locked
 * and maybe contended (Drepper's futex mutex), parked through the
 * address-keyed wait queues.  Before parking, a G spins briefly the way
 * Go's sync.Mutex does, only where spinning can pay off. */
#include <errno.h>

#include "runtime.h"
#include "sema.h"

/* proc.go: sync_runtime_canSpin.  Spin only on a multicore machine with
 * other Ps running (the holder is likely running) and nothing else queued
 * on this P, and only a few times. */
static bool canspin(int iter)
{
	if (iter >= 4 || sched.gomaxprocs <= 1)
		return false;
	if (sched.gomaxprocs <= (int)(__atomic_load_n(&sched.npidle, __ATOMIC_RELAXED) +
				      __atomic_load_n(&sched.nmspinning, __ATOMIC_RELAXED) + 1))
		return false;
	return runqempty(getg()->m->p);
}

int gmp_mutex_trylock(uint32_t *w)
{
	uint32_t z = 0;
	return __atomic_compare_exchange_n(w, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED) ? 0 : EBUSY;
}

int gmp_mutex_lock(uint32_t *w, int64_t deadline)
{
	uint32_t z = 0;
	if (__atomic_compare_exchange_n(w, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	for (int iter = 0; canspin(iter); iter++) {
		for (int i = 0; i < 30; i++)
			gmp_arch_pause();
		z = 0;
		if (__atomic_compare_exchange_n(w, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
	}
	while (__atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE) != 0) {
		if (gmp_futexwait(w, 2, deadline, WAIT_MUTEX) == ETIMEDOUT)
			return ETIMEDOUT;
	}
	return 0;
}

void gmp_mutex_unlock(uint32_t *w)
{
	if (__atomic_exchange_n(w, 0, __ATOMIC_RELEASE) == 2)
		gmp_futexwake(w, 1);
}
