/* pthread_rwlock_tryrdlock fails with EBUSY while a writer holds the lock
 * (POSIX pthread_rwlock_tryrdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static void *fn(void *a) { return (void *)(intptr_t)pthread_rwlock_tryrdlock(&l); }
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	CHECK(join(spawn(fn, NULL)) == (void *)EBUSY);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
