/* The new thread's signal mask is inherited from the creating thread
 * (POSIX pthread_create). */
#include "../conform.h"
static void *fn(void *a)
{
	sigset_t cur;
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	return (void *)(intptr_t)(sigismember(&cur, SIGUSR1) && sigismember(&cur, SIGUSR2) &&
	                          !sigismember(&cur, SIGINT));
}
int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
