/* A signal handler run in a thread waiting at a barrier returns to the
 * wait: the thread stays at the barrier until the count is reached (POSIX
 * pthread_barrier_wait). */
#include "../conform.h"
static pthread_barrier_t b;
static volatile sig_atomic_t handled;
static volatile int through;
static void on(int s) { handled++; }
static void *fn(void *a) { int r = pthread_barrier_wait(&b); through = 1; return (void *)(intptr_t)r; }
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	OK(pthread_barrier_init(&b, NULL, 2));
	pthread_t t = spawn(fn, NULL);
	while (handled < 3) {
		pthread_kill(t, SIGUSR1);
		settle(5);
	}
	CHECK(!through);
	int r = pthread_barrier_wait(&b);
	CHECK(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
	intptr_t r2 = (intptr_t)join(t);
	CHECK(r2 == 0 || r2 == PTHREAD_BARRIER_SERIAL_THREAD);
	CHECK(r != r2);
	pass();
}
