/* A handler installed with SA_RESTART that interrupts sem_wait does not
 * end the wait: sem_wait goes on and returns 0 once the semaphore is
 * posted, as glibc's does (the kernel restarts its futex wait; LTP's
 * sigaction/16-1). */
#include "../conform.h"
static sem_t s;
static volatile int handled;
static void on_hup(int sig)
{
	(void)sig;
	handled = 1;
}
static void *fn(void *a)
{
	(void)a;
	return (void *)(intptr_t)(sem_wait(&s) == 0 ? 0 : errno);
}
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_hup;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGHUP, &sa, NULL);
	CHECK(sem_init(&s, 0, 0) == 0);
	pthread_t t = spawn(fn, NULL);
	settle(50);
	OK(pthread_kill(t, SIGHUP));
	while (!handled)
		settle(1);
	settle(50);
	CHECK(sem_post(&s) == 0);
	CHECK(join(t) == 0);
	pass();
}
