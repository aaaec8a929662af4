/* setpshared with an invalid value fails with EINVAL (POSIX
 * pthread_mutexattr_setpshared). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	EXPECT(pthread_mutexattr_setpshared(&a, 42), EINVAL);
	pass();
}
