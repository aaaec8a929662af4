/* The signal mask is per thread: a change in one thread leaves another
 * thread's mask as it was (POSIX pthread_sigmask). */
#include "../conform.h"
static sem_t changed, checked;
static void *fn(void *a)
{
	sigset_t s, cur;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	sem_post(&changed);
	sem_wait_ok(&checked);
	pthread_sigmask(SIG_BLOCK, NULL, &cur);
	return (void *)(intptr_t)(sigismember(&cur, SIGUSR2) && !sigismember(&cur, SIGUSR1));
}
int main(void)
{
	sigset_t s, cur;
	sem_init(&changed, 0, 0);
	sem_init(&checked, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&changed);
	OK(pthread_sigmask(SIG_BLOCK, NULL, &cur));
	CHECK(!sigismember(&cur, SIGUSR2));
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	sem_post(&checked);
	CHECK(join(t) == (void *)1);
	pass();
}
