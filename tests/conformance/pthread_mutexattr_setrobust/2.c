/* setrobust with an invalid value fails with EINVAL (POSIX
 * pthread_mutexattr_setrobust). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	EXPECT(pthread_mutexattr_setrobust(&a, 31337), EINVAL);
	pass();
}
