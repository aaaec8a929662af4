/* setpshared with an invalid value fails with EINVAL (POSIX
 * pthread_condattr_setpshared). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	OK(pthread_condattr_init(&a));
	EXPECT(pthread_condattr_setpshared(&a, -7), EINVAL);
	pass();
}
