/* A lock initialised with PTHREAD_RWLOCK_INITIALIZER works without
 * pthread_rwlock_init (POSIX pthread_rwlock_init). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int main(void)
{
	OK(pthread_rwlock_wrlock(&l));
	EXPECT(pthread_rwlock_tryrdlock(&l), EBUSY);
	OK(pthread_rwlock_unlock(&l));
	OK(pthread_rwlock_rdlock(&l));
	OK(pthread_rwlock_unlock(&l));
	pass();
}
