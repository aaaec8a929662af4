/* The real libc functions behind the ones we interpose, looked up once. */
#ifndef GMP_REALSYM_H
#define GMP_REALSYM_H

#include <pthread.h>

struct gmp_real {
	int (*pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	int (*pthread_getattr_np)(pthread_t, pthread_attr_t *);
	int (*pthread_mutex_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
	int (*pthread_mutex_lock)(pthread_mutex_t *);
	int (*pthread_mutex_trylock)(pthread_mutex_t *);
	int (*pthread_mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*pthread_mutex_unlock)(pthread_mutex_t *);
	int (*pthread_mutex_destroy)(pthread_mutex_t *);
	int (*pthread_mutex_consistent)(pthread_mutex_t *);
	int (*pthread_cond_init)(pthread_cond_t *, const pthread_condattr_t *);
	int (*pthread_cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*pthread_cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	int (*pthread_cond_signal)(pthread_cond_t *);
	int (*pthread_cond_broadcast)(pthread_cond_t *);
	int (*pthread_cond_destroy)(pthread_cond_t *);
	int (*pthread_barrier_wait)(pthread_barrier_t *);
	int (*pthread_barrier_destroy)(pthread_barrier_t *);
	int (*pthread_rwlock_rdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_tryrdlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_clockrdlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_wrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_trywrlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_clockwrlock)(pthread_rwlock_t *, clockid_t, const struct timespec *);
	int (*pthread_rwlock_unlock)(pthread_rwlock_t *);
	int (*pthread_rwlock_destroy)(pthread_rwlock_t *);
};

extern struct gmp_real gmp_real;

void gmp_realsym_init(void);

#endif
