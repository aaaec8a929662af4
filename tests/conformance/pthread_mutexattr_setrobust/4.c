/* After EOWNERDEAD, marking the mutex consistent makes it a normal mutex
 * again: later locks succeed with 0 (POSIX pthread_mutex_consistent). */
#include "../conform.h"
static pthread_mutex_t m;
static void *fn(void *a) { pthread_mutex_lock(&m); return NULL; }
static void *later(void *a) { int r = pthread_mutex_lock(&m); if (r == 0) pthread_mutex_unlock(&m); return (void *)(intptr_t)r; }
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
	CHECK(join(spawn(later, NULL)) == 0);
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
