/* A signal sent with pthread_kill is delivered to the target thread: its
 * handler runs in that thread (POSIX pthread_kill). */
#include "../conform.h"
static pthread_t target;
static volatile sig_atomic_t where; /* 1: in target, 2: elsewhere */
static sem_t ready;
static void on(int s) { where = pthread_equal(pthread_self(), target) ? 1 : 2; }
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
	OK(pthread_create(&target, NULL, fn, NULL));
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL); /* main cannot take it */
	sem_wait_ok(&ready);
	OK(pthread_kill(target, SIGUSR1));
	join(target);
	CHECK(where == 1);
	pass();
}
