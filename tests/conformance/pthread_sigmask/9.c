/* A process-directed signal is delivered to a thread that does not block
 * it, not to one that does (POSIX XSH 2.4.1, pthread_sigmask). */
#include "../conform.h"
static pthread_t taker;
static volatile sig_atomic_t where;
static sem_t ready;
static void on(int s) { where = pthread_equal(pthread_self(), taker) ? 1 : 2; }
static void *fn(void *a)
{
	sem_post(&ready);
	while (!where)
		sched_yield();
	return NULL;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigset_t s;
	sigaction(SIGUSR1, &sa, NULL);
	sem_init(&ready, 0, 0);
	OK(pthread_create(&taker, NULL, fn, NULL));
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	sem_wait_ok(&ready);
	CHECK(kill(getpid(), SIGUSR1) == 0);
	join(taker);
	CHECK(where == 1);
	pass();
}
