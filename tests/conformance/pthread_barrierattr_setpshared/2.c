/* pthread_barrierattr_setpshared with an invalid value fails with EINVAL
 * (POSIX pthread_barrierattr_setpshared). */
#include "../conform.h"
int main(void)
{
	pthread_barrierattr_t a;
	OK(pthread_barrierattr_init(&a));
	EXPECT(pthread_barrierattr_setpshared(&a, 5), EINVAL);
	pass();
}
