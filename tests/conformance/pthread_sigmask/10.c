/* A signal sent to the process while every thread but one blocks it is
 * handled by that thread (POSIX pthread_sigmask; XSH 2.4.1: delivered to
 * exactly one thread that does not block it), here waiting for a mutex;
 * its one-shot handler (SA_RESETHAND) runs once, and the action is
 * SIG_DFL afterwards (POSIX sigaction). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_t target;
static volatile sig_atomic_t hits, on_target;
static sem_t ready;
static void on(int s)
{
	hits++;
	on_target = pthread_equal(pthread_self(), target);
}
static void *fn(void *a)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_UNBLOCK, &s, NULL));
	target = pthread_self();
	sem_post(&ready);
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	return a;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on, .sa_flags = SA_RESETHAND}, now;
	OK(sigaction(SIGUSR1, &sa, NULL));
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	OK(pthread_sigmask(SIG_BLOCK, &s, NULL));
	sem_init(&ready, 0, 0);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	settle(20); /* waiting for the mutex by now, or soon: either way */
	CHECK(kill(getpid(), SIGUSR1) == 0);
	for (int i = 0; i < 5000 && !hits; i++)
		settle(1);
	OK(pthread_mutex_unlock(&m));
	join(t);
	CHECK(hits == 1);
	CHECK(on_target);
	OK(sigaction(SIGUSR1, NULL, &now));
	CHECK(now.sa_handler == SIG_DFL);
	pass();
}
