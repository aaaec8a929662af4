/* A one-shot handler (SA_RESETHAND) for a signal sent with pthread_kill to
 * a thread waiting for a mutex runs once, on that thread, with the action
 * already SIG_DFL on its entry (POSIX sigaction, SA_RESETHAND); the same
 * signal sent again meets that default (SIGWINCH's: ignored). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_t target;
static volatile sig_atomic_t hits, on_target, dfl_inside;
static sem_t ready;
static void on(int s)
{
	struct sigaction now;
	hits++;
	on_target = pthread_equal(pthread_self(), target);
	sigaction(s, NULL, &now);
	dfl_inside = now.sa_handler == SIG_DFL;
}
static void *fn(void *a)
{
	target = pthread_self();
	sem_post(&ready);
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	return a;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on, .sa_flags = SA_RESETHAND}, now;
	OK(sigaction(SIGWINCH, &sa, NULL));
	sem_init(&ready, 0, 0);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	settle(20); /* waiting for the mutex by now, or soon: either way */
	OK(pthread_kill(t, SIGWINCH));
	for (int i = 0; i < 5000 && !hits; i++)
		settle(1);
	OK(pthread_kill(t, SIGWINCH));
	settle(20);
	OK(pthread_mutex_unlock(&m));
	join(t);
	CHECK(hits == 1);
	CHECK(on_target);
	CHECK(dfl_inside);
	OK(sigaction(SIGWINCH, NULL, &now));
	CHECK(now.sa_handler == SIG_DFL);
	pass();
}
