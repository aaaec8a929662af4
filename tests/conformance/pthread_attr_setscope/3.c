/* setscope with a value that is no contention scope fails with EINVAL
 * (POSIX pthread_attr_setscope). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	OK(pthread_attr_init(&at));
	EXPECT(pthread_attr_setscope(&at, 77), EINVAL);
	pass();
}
