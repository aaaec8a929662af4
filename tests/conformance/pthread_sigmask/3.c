/* SIG_SETMASK replaces the mask with the set (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t s, cur;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGALRM);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	OK(pthread_sigmask(SIG_SETMASK, &s, NULL));
	OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
	CHECK(sigismember(&cur, SIGUSR2) && !sigismember(&cur, SIGUSR1) && !sigismember(&cur, SIGALRM));
	pass();
}
