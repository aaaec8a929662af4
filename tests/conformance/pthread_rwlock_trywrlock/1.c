/* pthread_rwlock_trywrlock fails with EBUSY while a reader holds the lock
 * (POSIX pthread_rwlock_trywrlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a) { return (void *)(intptr_t)pthread_rwlock_trywrlock(&l); }
int main(void)
{
	OK(pthread_rwlock_rdlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
