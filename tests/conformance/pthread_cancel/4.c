/* A thread blocked in sem_wait (a cancellation point) is cancelled (POSIX
 * pthread_cancel, XSH 2.9.5 cancellation points). */
#include "../conform.h"
static sem_t s, entering;
static void *fn(void *a)
{
	sem_post(&entering);
	sem_wait(&s);
	return (void *)1;
}
int main(void)
{
	sem_init(&s, 0, 0);
	sem_init(&entering, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&entering);
	settle(20);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	pass();
}
