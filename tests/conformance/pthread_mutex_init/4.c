/* A mutex initialised in heap memory from a default attributes object works
 * between threads (POSIX pthread_mutex_init). */
#include "../conform.h"
static void *fn(void *a) { return (void *)(intptr_t)pthread_mutex_trylock(a); }
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m = malloc(sizeof *m);
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutex_init(m, &a));
	OK(pthread_mutex_lock(m));
	CHECK(join(spawn(fn, m)) == (void *)EBUSY);
	OK(pthread_mutex_unlock(m));
	OK(pthread_mutex_destroy(m));
	free(m);
	pass();
}
