/* pthread_rwlock_init with NULL attributes returns 0 and gives an unlocked
 * lock; destroy returns 0 and the object can be initialised again (POSIX
 * pthread_rwlock_init, pthread_rwlock_destroy). */
#include "../conform.h"
int main(void)
{
	pthread_rwlock_t l;
	OK(pthread_rwlock_init(&l, NULL));
	OK(pthread_rwlock_trywrlock(&l));
	OK(pthread_rwlock_unlock(&l));
	OK(pthread_rwlock_destroy(&l));
	OK(pthread_rwlock_init(&l, NULL));
	OK(pthread_rwlock_tryrdlock(&l));
	OK(pthread_rwlock_unlock(&l));
	OK(pthread_rwlock_destroy(&l));
	pass();
}
