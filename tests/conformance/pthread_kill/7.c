/* A thread blocked in a system call (pause) is interrupted by a signal sent
 * to it with pthread_kill, after its handler runs (POSIX pthread_kill,
 * pause).  The signal is sent until the thread is out: one landing before
 * it reached pause only runs the handler. */
#include "../conform.h"
static volatile sig_atomic_t hit;
static volatile int done;
static sem_t ready;
static void on(int s) { hit = 1; }
static void *fn(void *a)
{
	sem_post(&ready);
	int r = pause();
	int e = errno;
	done = 1;
	return (void *)(intptr_t)(r == -1 && e == EINTR && hit);
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	sem_init(&ready, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	while (!done) {
		pthread_kill(t, SIGUSR1); /* may find it gone: fine */
		settle(5);
	}
	CHECK(join(t) == (void *)1);
	pass();
}
