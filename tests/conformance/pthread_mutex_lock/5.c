/* When a signal is delivered to a thread waiting for a mutex, the handler
 * runs and the thread resumes waiting as if not interrupted (POSIX
 * pthread_mutex_lock; the function never fails with EINTR). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t handled;
static volatile int done;
static void on(int s) { handled++; }
static void *fn(void *a)
{
	int r = pthread_mutex_lock(&m);
	done = 1;
	if (r == 0)
		pthread_mutex_unlock(&m);
	return (void *)(intptr_t)r;
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	while (handled < 3) {
		pthread_kill(t, SIGUSR1);
		settle(5);
	}
	CHECK(!done);
	OK(pthread_mutex_unlock(&m));
	CHECK(join(t) == 0);
	pass();
}
