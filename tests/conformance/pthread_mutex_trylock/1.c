/* pthread_mutex_trylock on an unlocked mutex acquires it and returns 0
 * (POSIX pthread_mutex_trylock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *fn(void *a) { return (void *)(intptr_t)pthread_mutex_trylock(&m); }
int main(void)
{
	OK(pthread_mutex_trylock(&m));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_mutex_unlock(&m));
	pass();
}
