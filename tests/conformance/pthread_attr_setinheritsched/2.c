/* setinheritsched with an invalid value fails with EINVAL (or ENOTSUP)
 * (POSIX pthread_attr_setinheritsched). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	OK(pthread_attr_init(&at));
	int r = pthread_attr_setinheritsched(&at, 4242);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
