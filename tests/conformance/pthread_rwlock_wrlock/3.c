/* pthread_rwlock_wrlock by the thread already holding the write lock fails
 * with EDEADLK on this system (POSIX pthread_rwlock_wrlock,
 * "may fail" EDEADLK). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	EXPECT(pthread_rwlock_wrlock(&l), EDEADLK);
	OK(pthread_rwlock_unlock(&l));
	pass();
}
