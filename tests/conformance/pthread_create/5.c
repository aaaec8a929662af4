/* The set of signals pending for the new thread is empty, even when a signal
 * is pending for the creating thread (POSIX pthread_create). */
#include "../conform.h"
static void *fn(void *a)
{
	sigset_t p;
	sigpending(&p);
	return (void *)(intptr_t)sigismember(&p, SIGUSR1);
}
int main(void)
{
	sigset_t s, p;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	OK(pthread_kill(pthread_self(), SIGUSR1));
	sigpending(&p);
	CHECK(sigismember(&p, SIGUSR1));
	CHECK(join(spawn(fn, NULL)) == (void *)0);
	pass();
}
