#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>

#include "arch/x86_64/arch.h"
#include "debug.h"
#include "lock.h"

long gmp_futex_wait_kernel(uint32_t *addr, uint32_t val, int64_t ns)
{
	struct timespec ts, *tsp = NULL;
	if (ns >= 0) {
		ts.tv_sec = ns / 1000000000;
		ts.tv_nsec = ns % 1000000000;
		tsp = &ts;
	}
	return gmp_syscall6(SYS_futex, (long)addr, FUTEX_WAIT_PRIVATE, val, (long)tsp, 0, 0);
}

long gmp_futex_wake_kernel(uint32_t *addr, int n)
{
	return gmp_syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n);
}

#define ACTIVE_SPIN 4
#define ACTIVE_SPIN_CNT 30

void lock(struct mutex *l)
{
	uint32_t v = 0;
	if (__atomic_compare_exchange_n(&l->key, &v, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	/* Spin a little: the holder is running on another M and the critical
	 * sections are short. */
	for (int i = 0; i < ACTIVE_SPIN; i++) {
		for (int j = 0; j < ACTIVE_SPIN_CNT; j++)
			gmp_arch_pause();
		v = 0;
		if (__atomic_compare_exchange_n(&l->key, &v, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
	}
	while (__atomic_exchange_n(&l->key, 2, __ATOMIC_ACQUIRE) != 0)
		gmp_futex_wait_kernel(&l->key, 2, -1);
}

void unlock(struct mutex *l)
{
	uint32_t v = __atomic_exchange_n(&l->key, 0, __ATOMIC_RELEASE);
	if (v == 0)
		gmp_throw("unlock of unlocked runtime lock");
	if (v == 2)
		gmp_futex_wake_kernel(&l->key, 1);
}

void noteclear(struct note *n)
{
	__atomic_store_n(&n->key, 0, __ATOMIC_RELAXED);
}

void notewakeup(struct note *n)
{
	uint32_t old = __atomic_exchange_n(&n->key, 1, __ATOMIC_RELEASE);
	if (old != 0)
		gmp_throw("notewakeup: double wakeup");
	gmp_futex_wake_kernel(&n->key, 1);
}

void notesleep(struct note *n)
{
	while (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 0)
		gmp_futex_wait_kernel(&n->key, 0, -1);
}

int notetsleep(struct note *n, int64_t ns)
{
	if (ns < 0) {
		notesleep(n);
		return 1;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t deadline = now.tv_sec * 1000000000LL + now.tv_nsec + ns;
	while (__atomic_load_n(&n->key, __ATOMIC_ACQUIRE) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		int64_t left = deadline - (now.tv_sec * 1000000000LL + now.tv_nsec);
		if (left <= 0)
			return __atomic_load_n(&n->key, __ATOMIC_ACQUIRE) != 0;
		gmp_futex_wait_kernel(&n->key, 0, left);
	}
	return 1;
}
