/* pthread_rwlock_tryrdlock succeeds while only readers hold the lock (POSIX
 * pthread_rwlock_tryrdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a) { int r = pthread_rwlock_tryrdlock(&l); if (r == 0) pthread_rwlock_unlock(&l); return (void *)(intptr_t)r; }
int main(void)
{
	OK(pthread_rwlock_rdlock(&l));
	CHECK(join(spawn(fn, NULL)) == 0);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
