/* SIGKILL and SIGSTOP cannot be blocked: asking to block them is not an
 * error, but they do not enter the mask (POSIX pthread_sigmask). */
#include "../conform.h"
int main(void)
{
	sigset_t s, cur;
	sigemptyset(&s);
	sigaddset(&s, SIGKILL);
	sigaddset(&s, SIGSTOP);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
	CHECK(!sigismember(&cur, SIGKILL) && !sigismember(&cur, SIGSTOP) && sigismember(&cur, SIGUSR1));
	pass();
}
