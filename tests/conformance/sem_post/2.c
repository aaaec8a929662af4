/* sem_post is async-signal-safe: a post from a signal handler releases a
 * thread blocked in sem_wait (POSIX sem_post). */
#include "../conform.h"
static sem_t s;
static void on(int sig) { sem_post(&s); }
static void *fn(void *a) { sem_wait_ok(&s); return (void *)1; }
int main(void)
{
	struct sigaction sa = {.sa_handler = on, .sa_flags = SA_RESTART};
	sigaction(SIGUSR1, &sa, NULL);
	CHECK(sem_init(&s, 0, 0) == 0);
	pthread_t t = spawn(fn, NULL);
	CHECK(raise(SIGUSR1) == 0);
	CHECK(join(t) == (void *)1);
	pass();
}
