/* pthread_create for the interposed creators: pthread_create, and C11's
 * thrd_create, whose start routine returns an int. */
#ifndef GMP_THREAD_CREATE_H
#define GMP_THREAD_CREATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

int gmp_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg, bool c11,
	       uintptr_t createpc);

#endif
