/* pthread_setcancelstate with a value that is no state fails with EINVAL
 * (POSIX pthread_setcancelstate). */
#include "../conform.h"
int main(void)
{
	int old;
	EXPECT(pthread_setcancelstate(1234, &old), EINVAL);
	pass();
}
