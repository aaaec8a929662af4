/* SIG_BLOCK adds the set to the mask, and the previous mask comes back in
 * *oset (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t a, b, old, cur;
	sigemptyset(&a);
	sigaddset(&a, SIGUSR1);
	sigemptyset(&b);
	sigaddset(&b, SIGUSR2);
	OK(pthread_sigmask(SIG_SETMASK, &a, NULL));
	OK(pthread_sigmask(SIG_BLOCK, &b, &old));
	CHECK(sigismember(&old, SIGUSR1) && !sigismember(&old, SIGUSR2));
	OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
	CHECK(sigismember(&cur, SIGUSR1) && sigismember(&cur, SIGUSR2));
	pass();
}
