/* setprotocol with a value that is no protocol fails with EINVAL or ENOTSUP
 * (POSIX pthread_mutexattr_setprotocol). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	int r = pthread_mutexattr_setprotocol(&a, 777);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
