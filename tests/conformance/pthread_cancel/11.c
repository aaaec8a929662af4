/* A thread blocked in sigwait (a cancellation point) is cancelled (POSIX
 * XSH 2.9.5: sigwait is a cancellation point). */
#include "../conform.h"
static sem_t entering;
static void *fn(void *a)
{
	sigset_t s;
	int sig;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	sem_post(&entering);
	sigwait(&s, &sig);
	return (void *)1;
}
int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	sem_init(&entering, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&entering);
	settle(20);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	pass();
}
