/* pthread_mutex_consistent on a robust mutex that is not in the
 * inconsistent state fails with EINVAL (POSIX pthread_mutex_consistent). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	OK(pthread_mutex_init(&m, &a));
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_mutex_consistent(&m), EINVAL);
	OK(pthread_mutex_unlock(&m));
	pass();
}
