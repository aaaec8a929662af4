/* A signal delivered to a thread in pthread_cond_wait runs its handler, and
 * the wait then either continues or returns 0 (a spurious wakeup), never
 * EINTR (POSIX pthread_cond_wait). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static volatile sig_atomic_t handled;
static int go;
static void on(int s) { handled++; }
static void *fn(void *a)
{
	int bad = 0;
	pthread_mutex_lock(&m);
	while (!go) {
		int r = pthread_cond_wait(&c, &m);
		if (r != 0)
			bad = r;
	}
	pthread_mutex_unlock(&m);
	return (void *)(intptr_t)bad;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t = spawn(fn, NULL);
	while (handled < 3) {
		pthread_kill(t, SIGUSR1);
		settle(5);
	}
	OK(pthread_mutex_lock(&m));
	go = 1;
	OK(pthread_cond_signal(&c));
	OK(pthread_mutex_unlock(&m));
	CHECK(join(t) == 0);
	pass();
}
