/* pthread_setconcurrency with a negative level fails with EINVAL (POSIX
 * pthread_setconcurrency). */
#include "../conform.h"
int main(void)
{
	EXPECT(pthread_setconcurrency(-1), EINVAL);
	pass();
}
