/* settype with a value that is no mutex type fails with EINVAL (POSIX
 * pthread_mutexattr_settype). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	EXPECT(pthread_mutexattr_settype(&a, 999), EINVAL);
	EXPECT(pthread_mutexattr_settype(&a, -1), EINVAL);
	pass();
}
