/* A signal pending for the thread and then unblocked is delivered before
 * pthread_sigmask returns (POSIX pthread_sigmask). */
#include "../conform.h"
static volatile sig_atomic_t hits;
static void on(int s) { hits++; }
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigset_t s;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	OK(pthread_kill(pthread_self(), SIGUSR1));
	CHECK(hits == 0);
	OK(pthread_sigmask(SIG_UNBLOCK, &s, NULL));
	CHECK(hits == 1);
	pass();
}
