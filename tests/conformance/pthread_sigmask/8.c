/* A NULL set leaves the mask unchanged whatever how is, and *oset still
 * receives the current mask (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t s, cur;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	OK(pthread_sigmask(SIG_SETMASK, &s, NULL));
	OK(pthread_sigmask(SIG_UNBLOCK, NULL, &cur));
	CHECK(sigismember(&cur, SIGUSR2));
	OK(pthread_sigmask(SIG_SETMASK, NULL, &cur));
	CHECK(sigismember(&cur, SIGUSR2));
	pass();
}
