/* SIG_UNBLOCK removes the set from the mask, leaving other signals blocked
 * (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t s, cur;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	sigdelset(&s, SIGUSR2);
	OK(pthread_sigmask(SIG_UNBLOCK, &s, NULL));
	OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
	CHECK(!sigismember(&cur, SIGUSR1) && sigismember(&cur, SIGUSR2));
	pass();
}
