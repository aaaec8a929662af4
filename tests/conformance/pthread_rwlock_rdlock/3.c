/* A thread may take the read lock several times; it must unlock as many
 * times before a writer can get it (POSIX pthread_rwlock_rdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a) { int r = pthread_rwlock_trywrlock(&l); if (r == 0) pthread_rwlock_unlock(&l); return (void *)(intptr_t)r; }
int main(void)
{
	OK(pthread_rwlock_rdlock(&l));
	OK(pthread_rwlock_rdlock(&l));
	OK(pthread_rwlock_rdlock(&l));
	OK(pthread_rwlock_unlock(&l));
	OK(pthread_rwlock_unlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_rwlock_unlock(&l));
	CHECK(join(spawn(fn, NULL)) == 0);
	pass();
}
