/* If the new owner after EOWNERDEAD unlocks without making the mutex
 * consistent, the mutex becomes unusable: later locks fail with
 * ENOTRECOVERABLE (POSIX pthread_mutex_lock, pthread_mutex_consistent). */
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
	EXPECT(pthread_mutex_lock(&m), EOWNERDEAD);
	OK(pthread_mutex_unlock(&m));
	EXPECT(pthread_mutex_lock(&m), ENOTRECOVERABLE);
	EXPECT(pthread_mutex_trylock(&m), ENOTRECOVERABLE);
	pass();
}
