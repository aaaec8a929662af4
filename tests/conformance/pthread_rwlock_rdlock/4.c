/* pthread_rwlock_rdlock by the thread holding the write lock fails with
 * EDEADLK or deadlocks; this system reports EDEADLK (POSIX
 * pthread_rwlock_rdlock, "may fail" EDEADLK). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	EXPECT(pthread_rwlock_rdlock(&l), EDEADLK);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
