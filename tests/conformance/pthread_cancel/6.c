/* A thread in nanosleep (a cancellation point) is cancelled before its
 * sleep ends (POSIX XSH 2.9.5: nanosleep is a cancellation point). */
#include "../conform.h"
static sem_t entering;
static void *fn(void *a)
{
	struct timespec ts = {60, 0};
	sem_post(&entering);
	nanosleep(&ts, NULL);
	return (void *)1;
}
int main(void)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	sem_init(&entering, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&entering);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	CHECK(since_ms(CLOCK_MONOTONIC, &t0) < 30000);
	pass();
}
