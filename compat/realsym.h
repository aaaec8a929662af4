/* The real libc functions behind the ones we interpose, looked up once. */
#ifndef GMP_REALSYM_H
#define GMP_REALSYM_H

#include <pthread.h>
#include <time.h>

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

/* libc's clock_gettime (the vDSO), for the runtime's clock reads; a raw
 * system call until gmp_realsym_init. */
extern int (*gmp_clock_gettime)(clockid_t, struct timespec *);

void gmp_realsym_init(void);

/* The next definition of name after ours (dlsym(RTLD_NEXT)): libc's, or
 * that of a library preloaded behind us. */
void *gmp_dlsym_next(const char *name);

/* The same for a function we interpose, looked up once per call site:
 * for those not needed before start-up or in a signal handler (gmp_real
 * holds those, looked up by gmp_realsym_init). */
#define GMP_REAL(fn)                                                                               \
	({                                                                                         \
		static __typeof__(fn) *real_;                                                      \
		if (real_ == NULL)                                                                 \
			real_ = (__typeof__(fn) *)gmp_dlsym_next(#fn);                              \
		real_;                                                                             \
	})

#endif
