/* When the owner of a robust mutex terminates holding it, the next locker
 * gets EOWNERDEAD and owns the mutex (POSIX pthread_mutexattr_setrobust,
 * pthread_mutex_lock). */
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
	OK(pthread_mutex_consistent(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
