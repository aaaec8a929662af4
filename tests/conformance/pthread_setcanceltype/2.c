/* pthread_setcanceltype with a value that is no type fails with EINVAL
 * (POSIX pthread_setcanceltype). */
#include "../conform.h"
int main(void)
{
	int old;
	EXPECT(pthread_setcanceltype(99, &old), EINVAL);
	pass();
}
