/* setstacksize with a size below PTHREAD_STACK_MIN fails with EINVAL and
 * leaves the attribute as it was (POSIX pthread_attr_setstacksize). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t before, after;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getstacksize(&at, &before));
	EXPECT(pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN - 1), EINVAL);
	EXPECT(pthread_attr_setstacksize(&at, 0), EINVAL);
	OK(pthread_attr_getstacksize(&at, &after));
	CHECK(before == after);
	pass();
}
