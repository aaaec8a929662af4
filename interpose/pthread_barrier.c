/* Barriers park the G.  glibc's init validates and lays out the object
 * (in, current_round, count, shared); process-shared ones stay glibc's. */
#include <errno.h>
#include <pthread.h>

#include "compat/realsym.h"
#include "export.h"
#include "shim/cancel.h"
#include "shim/init.h"
#include "shim/runtime.h"
#include "shim/sema.h"
#include "shim/rtprio.h"
#include "shim/syscall.h"

struct gmp_barrier {
	uint32_t in;    /* arrivals in this round */
	uint32_t round; /* completed rounds; waiters park on it */
	uint32_t count;
	int shared;     /* non-zero for a process-shared barrier */
};
_Static_assert(sizeof(struct gmp_barrier) <= sizeof(pthread_barrier_t), "barrier overlay");
#define B(b) ((struct gmp_barrier *)(b))

GMP_EXPORT int pthread_barrier_wait(pthread_barrier_t *b)
{
	gmp_ensure_init();
	if (B(b)->shared) {
		/* glibc's, shared with other processes: the M waits in the
		 * kernel, its P runs other Gs meanwhile. */
		return GMP_BLOCKING_CALL(gmp_real.pthread_barrier_wait(b));
	}
	struct gmp_barrier *bp = B(b);
	uint32_t round = __atomic_load_n(&bp->round, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&bp->in, 1, __ATOMIC_ACQ_REL) == bp->count) {
		/* The last to arrive opens the barrier for everyone else. */
		__atomic_store_n(&bp->in, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&bp->round, 1, __ATOMIC_RELEASE);
		gmp_futexwake(&bp->round, 1 << 30);
		gmp_rt_preempt_point(); /* a realtime waiter above us runs now */
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (__atomic_load_n(&bp->round, __ATOMIC_ACQUIRE) == round) {
		gmp_cancel_async_point();
		gmp_futexwait(&bp->round, round, -1, WAIT_BARRIER);
	}
	return 0;
}

GMP_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b)
{
	if (B(b)->shared) {
		/* glibc waits for the last round's threads to leave. */
		return GMP_BLOCKING_CALL(gmp_real.pthread_barrier_destroy(b));
	}
	if (__atomic_load_n(&B(b)->in, __ATOMIC_ACQUIRE) != 0)
		return EBUSY;
	return 0;
}
