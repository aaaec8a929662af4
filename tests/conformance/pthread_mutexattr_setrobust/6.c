/* trylock of a robust mutex whose owner died also reports EOWNERDEAD and
 * acquires it (POSIX pthread_mutex_trylock). */
#include "../conform.h"
static pthread_mutex_t m;
static void *fn(void *a) { pthread_mutex_lock(&m); return NULL; }
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	OK(pthread_mutex_init(&m, &a));
	join(spawn(fn, NULL));
	EXPECT(pthread_mutex_trylock(&m), EOWNERDEAD);
	OK(pthread_mutex_consistent(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
