/* pthread_kill with an invalid signal number fails with EINVAL (POSIX
 * pthread_kill). */
#include "../conform.h"
int main(void)
{
	EXPECT(pthread_kill(pthread_self(), -1), EINVAL);
	EXPECT(pthread_kill(pthread_self(), 100000), EINVAL);
	pass();
}
