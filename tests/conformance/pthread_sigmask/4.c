/* pthread_sigmask with an invalid how (and a non-NULL set) fails with EINVAL
 * and leaves the mask unchanged (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t s, before, after;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, NULL, &before));
	EXPECT(pthread_sigmask(12345, &s, NULL), EINVAL);
	OK(pthread_sigmask(SIG_BLOCK, NULL, &after));
	CHECK(sigismember(&before, SIGUSR1) == sigismember(&after, SIGUSR1));
	pass();
}
