/* pthread_mutex_consistent on a mutex that is not robust fails with EINVAL
 * (POSIX pthread_mutex_consistent). */
#include "../conform.h"
int main(void)
{
	pthread_mutex_t m;
	OK(pthread_mutex_init(&m, NULL));
	OK(pthread_mutex_lock(&m));
	EXPECT(pthread_mutex_consistent(&m), EINVAL);
	OK(pthread_mutex_unlock(&m));
	pass();
}
