/* A thread blocked in read() on an empty pipe, interrupted by a handler
 * installed with SA_RESTART for a signal sent with pthread_kill, goes on
 * reading: the read returns the data written after the handler ran
 * (POSIX sigaction, SA_RESTART). */
#include "../conform.h"
static volatile sig_atomic_t hits;
static int p[2];
static sem_t ready;
static void on(int s) { hits++; }
static void *fn(void *a)
{
	char c = 0;
	sem_post(&ready);
	ssize_t r = read(p[0], &c, 1);
	return (void *)(intptr_t)(r == 1 && c == 'x');
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on, .sa_flags = SA_RESTART};
	OK(sigaction(SIGUSR1, &sa, NULL));
	CHECK(pipe(p) == 0);
	sem_init(&ready, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	settle(20); /* in read by now, or soon: either way it must return the byte */
	OK(pthread_kill(t, SIGUSR1));
	for (int i = 0; i < 5000 && !hits; i++)
		settle(1);
	CHECK(hits == 1);
	settle(20);
	CHECK(write(p[1], "x", 1) == 1);
	CHECK(join(t) == (void *)1);
	pass();
}
