/* A thread waiting in sigwait for a signal it blocks receives the signal
 * another thread sends it with pthread_kill (POSIX pthread_kill, sigwait). */
#include "../conform.h"
static sem_t ready;
static void *fn(void *a)
{
	sigset_t s;
	int sig = 0;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sem_post(&ready);
	if (sigwait(&s, &sig) != 0)
		return NULL;
	return (void *)(intptr_t)sig;
}
int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	sem_init(&ready, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	OK(pthread_kill(t, SIGUSR1));
	CHECK(join(t) == (void *)SIGUSR1);
	pass();
}
