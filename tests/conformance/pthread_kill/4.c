/* A signal sent with pthread_kill to a thread that blocks it stays pending
 * for that thread (not for the process) until unblocked (POSIX pthread_kill,
 * pthread_sigmask). */
#include "../conform.h"
static sem_t blocked, sent;
static volatile sig_atomic_t hits;
static void on(int s) { hits++; }
static void *fn(void *a)
{
	sigset_t s, p;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	sem_post(&blocked);
	sem_wait_ok(&sent);
	sigpending(&p);
	int pend = sigismember(&p, SIGUSR2);
	int before = hits;
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	return (void *)(intptr_t)(pend && before == 0 && hits == 1);
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR2, &sa, NULL);
	sem_init(&blocked, 0, 0);
	sem_init(&sent, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&blocked);
	OK(pthread_kill(t, SIGUSR2));
	sem_post(&sent);
	CHECK(join(t) == (void *)1);
	sigset_t p;
	sigpending(&p);
	CHECK(!sigismember(&p, SIGUSR2));
	pass();
}
