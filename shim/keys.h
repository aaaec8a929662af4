/* Thread-specific data (keys.c).  Keys carry a sequence number (odd while
 * in use) so that a value stored under a deleted key is invisible to a new
 * key that reuses the slot, as in NPTL.  Values of threads that are no G
 * live in their foreign G (foreign.c). */
#ifndef GMP_KEYS_H
#define GMP_KEYS_H

#include <pthread.h>

#include "runtime.h"

int gmp_key_create(pthread_key_t *key, void (*destr)(void *));
int gmp_key_delete(pthread_key_t key);
void *gmp_getspecific(pthread_key_t key);
/* value is stored, never read (as glibc declares pthread_setspecific). */
int gmp_setspecific(pthread_key_t key, const void *value) __attribute__((access(none, 2)));
/* At gp's exit, on gp's own thread: the destructors of its non-NULL
 * values, for at most PTHREAD_DESTRUCTOR_ITERATIONS rounds. */
void gmp_keys_run_destructors(struct g *gp);

#endif
