/* Where our state lives inside the user's pthread objects.  We keep
 * glibc's sizes and the fields its static initializers set, so objects
 * from PTHREAD_*_INITIALIZER*, from glibc's init functions and from
 * zeroed memory all work. */
#ifndef GMP_LAYOUT_H
#define GMP_LAYOUT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* The sizes of glibc's objects on each architecture the shim knows: the
 * fields below are at the same offsets on both, only the tail padding of
 * a mutex and an attribute differs. */
#if defined(__x86_64__)
_Static_assert(sizeof(pthread_mutex_t) == 40, "glibc x86_64 mutex size");
_Static_assert(sizeof(pthread_cond_t) == 48, "glibc x86_64 condvar size");
_Static_assert(sizeof(pthread_attr_t) == 56, "glibc x86_64 attr size");
#elif defined(__aarch64__)
_Static_assert(sizeof(pthread_mutex_t) == 48, "glibc aarch64 mutex size");
_Static_assert(sizeof(pthread_cond_t) == 48, "glibc aarch64 condvar size");
_Static_assert(sizeof(pthread_attr_t) == 64, "glibc aarch64 attr size");
#else
#error "compat/layout.h: glibc's object layouts are checked for x86_64 and aarch64 only"
#endif

/* Thread attributes start with the priority and the policy.  The policy
 * setter accepts only SCHED_OTHER, FIFO and RR, but pthread_getattr_np
 * reports whatever policy the thread has (BATCH, IDLE), as glibc's does
 * by writing the field itself. */
struct gmp_attr_head {
	int sched_priority;
	int sched_policy;
};

/* Mutex: __lock is the lock word, __owner the owner's TID, __count the
 * recursion depth, __kind the type exactly as glibc's initializers and
 * pthread_mutex_init store it. */
_Static_assert(offsetof(pthread_mutex_t, __data.__lock) == 0, "mutex lock word");
_Static_assert(offsetof(pthread_mutex_t, __data.__count) == 4, "mutex count");
_Static_assert(offsetof(pthread_mutex_t, __data.__owner) == 8, "mutex owner");
/* Where the owner's TID lies from the lock word (wait morphing reads it). */
#define GMP_MUTEX_OWNER_FROM_LOCK 8
_Static_assert(offsetof(pthread_mutex_t, __data.__kind) == 16, "mutex kind");

#define GMP_MUTEX_TYPE_MASK 3
/* glibc's __kind flags, set by its pthread_mutex_init. */
#define GMP_MUTEX_ROBUST 16
#define GMP_MUTEX_PRIO_INHERIT 32
#define GMP_MUTEX_PRIO_PROTECT 64
#define GMP_MUTEX_PSHARED 128
/* Kinds on kernel futexes (other processes may use them): robust and
 * process-shared; also -1, glibc's "destroyed".  Priority-protocol bits
 * alone are only stored. */
#define GMP_MUTEX_KERNEL_BITS (GMP_MUTEX_ROBUST | GMP_MUTEX_PSHARED)

/* Condition variable: two 32-bit counters in the first 8 bytes (glibc's
 * __wseq); glibc's pthread_cond_init keeps its flags in __wrefs. */
struct gmp_cond {
	uint32_t wait;   /* next ticket */
	uint32_t notify; /* next ticket to be notified */
	uint32_t pad[7];
	uint32_t wrefs;  /* bit 0: process-shared, bit 1: CLOCK_MONOTONIC */
	uint32_t pad2[2];
};
_Static_assert(sizeof(struct gmp_cond) == sizeof(pthread_cond_t), "cond overlay size");
_Static_assert(offsetof(struct gmp_cond, wrefs) == 36, "glibc __wrefs offset");
#define GMP_COND_SHARED 1
#define GMP_COND_MONOTONIC 2

/* rwlock: glibc's field names in the comments; state, wwait and rwait are
 * the runtime's words in glibc's slots, the rest keep glibc's meaning. */
struct gmp_rwlock {
	uint32_t state;   /* __readers */
	uint32_t wwait;   /* __writers: parked writers */
	uint32_t rwait;   /* __wrphase_futex: parked readers */
	uint32_t pad[3];
	int writer;       /* __cur_writer: the writer's TID */
	int shared;       /* __shared */
	uint32_t pad2[4];
	uint32_t flags;   /* __flags: the kind */
};
_Static_assert(sizeof(struct gmp_rwlock) <= sizeof(pthread_rwlock_t), "rwlock overlay");
_Static_assert(__builtin_offsetof(struct gmp_rwlock, flags) == 48, "glibc __flags offset");

/* sem_t: value, waiter count, and glibc's "private" word, 0 for a
 * process-private semaphore and FUTEX_PRIVATE_FLAG (128) for a shared one
 * (glibc XORs it into the futex operation).  The runtime keeps its own
 * words after these in a private semaphore. */
struct gmp_sem_glibc {
	uint32_t value;
	uint32_t nwaiters;
	int private;
	int pad;
};
#define GMP_SEM_SHARED 128

/* pthread_spinlock_t: x86_64's glibc (assembly) counts down from 1, the
 * generic C version (aarch64) takes 0 to 1. */
#if defined(__x86_64__)
#define GMP_SPIN_UNLOCKED 1
#define GMP_SPIN_LOCKED 0
#else
#define GMP_SPIN_UNLOCKED 0
#define GMP_SPIN_LOCKED 1
#endif

#endif
