/* What jemalloc does for its background thread: a library that makes (and
 * joins) threads with the pthread_create it finds through
 * dlsym(RTLD_NEXT, ...), so that under the shim they are plain OS threads,
 * never Gs, while natively they are ordinary threads. */
#include <dlfcn.h>
#include <pthread.h>

int foreign_create(pthread_t *t, void *(*fn)(void *), void *arg)
{
	int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
		(int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT,
												"pthread_create");
	return create ? create(t, NULL, fn, arg) : -1;
}

int foreign_join(pthread_t t, void **ret)
{
	int (*join)(pthread_t, void **) = (int (*)(pthread_t, void **))dlsym(RTLD_NEXT, "pthread_join");
	return join ? join(t, ret) : -1;
}
