/* A thread blocked in a system call (pause) is interrupted by a signal sent
 * to it with pthread_kill, after its handler runs (POSIX pthread_kill,
 * pause). */
#include "../conform.h"
static volatile sig_atomic_t hit;
static sem_t ready;
static void on(int s) { hit = 1; }
static void *fn(void *a)
{
	sem_post(&ready);
	int r = pause();
	return (void *)(intptr_t)(r == -1 && errno == EINTR && hit);
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	sem_init(&ready, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	settle(20);
	OK(pthread_kill(t, SIGUSR1));
	CHECK(join(t) == (void *)1);
	pass();
}
