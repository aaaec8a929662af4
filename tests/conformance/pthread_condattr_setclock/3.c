/* setclock with a value that names no clock fails with EINVAL (POSIX
 * pthread_condattr_setclock). */
#include "../conform.h"
int main(void)
{
	pthread_condattr_t a;
	OK(pthread_condattr_init(&a));
	EXPECT(pthread_condattr_setclock(&a, (clockid_t)4711), EINVAL);
	pass();
}
