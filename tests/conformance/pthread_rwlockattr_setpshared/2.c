/* pthread_rwlockattr_setpshared with an invalid value fails with EINVAL
 * (POSIX pthread_rwlockattr_setpshared). */
#include "../conform.h"
int main(void)
{
	pthread_rwlockattr_t a;
	OK(pthread_rwlockattr_init(&a));
	EXPECT(pthread_rwlockattr_setpshared(&a, 99), EINVAL);
	pass();
}
