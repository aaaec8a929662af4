/* setschedpolicy with a value that is no scheduling policy fails with EINVAL
 * (or ENOTSUP) (POSIX pthread_attr_setschedpolicy). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	OK(pthread_attr_init(&at));
	int r = pthread_attr_setschedpolicy(&at, 9999);
	CHECK(r == EINVAL || r == ENOTSUP);
	pass();
}
