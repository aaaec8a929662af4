/* Thread-specific data: the keys and values live in the runtime
 * (shim/keys.c), since a thread's exit runs their destructors. */
#include <pthread.h>

#include "export.h"
#include "shim/keys.h"

GMP_EXPORT int pthread_key_create(pthread_key_t *key, void (*destr)(void *))
{
	return gmp_key_create(key, destr);
}

GMP_EXPORT int pthread_key_delete(pthread_key_t key)
{
	return gmp_key_delete(key);
}

GMP_EXPORT void *pthread_getspecific(pthread_key_t key)
{
	return gmp_getspecific(key);
}

GMP_EXPORT int pthread_setspecific(pthread_key_t key, const void *value)
{
	return gmp_setspecific(key, value);
}

GMP_EXPORT int __pthread_key_create(pthread_key_t *key, void (*destr)(void *))
	__attribute__((alias("pthread_key_create")));
GMP_EXPORT void *__pthread_getspecific(pthread_key_t key) __attribute__((alias("pthread_getspecific")));
GMP_EXPORT int __pthread_setspecific(pthread_key_t key, const void *v) __attribute__((alias("pthread_setspecific")));
