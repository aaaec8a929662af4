/* sem_wait interrupted by a signal handler (installed without SA_RESTART)
 * fails with EINTR (POSIX sem_wait). */
#include "../conform.h"
static sem_t s;
static volatile int done;
static void on(int sig) {}
static void *fn(void *a)
{
	int r = sem_wait(&s);
	int e = errno;
	done = 1;
	return (void *)(intptr_t)(r == -1 && e == EINTR);
}
int main(void)
{
	struct sigaction sa = {.sa_handler = on};
	sigaction(SIGUSR1, &sa, NULL);
	CHECK(sem_init(&s, 0, 0) == 0);
	pthread_t t = spawn(fn, NULL);
	while (!done) {
		pthread_kill(t, SIGUSR1);
		settle(5);
	}
	CHECK(join(t) == (void *)1);
	pass();
}
