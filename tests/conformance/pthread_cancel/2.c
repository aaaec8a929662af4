/* Deferred cancellation does not act between cancellation points: a thread
 * cancelled while it runs code without one finishes that code first (POSIX
 * pthread_cancel, pthread_setcanceltype deferred). */
#include "../conform.h"
static sem_t cancelled, running;
static volatile int reached;
static void *fn(void *a)
{
	sem_post(&running);
	while (sem_trywait(&cancelled) != 0) /* sem_trywait is no cancellation point */
		;
	reached = 1;
	pthread_testcancel();
	reached = 2;
	return NULL;
}
int main(void)
{
	sem_init(&cancelled, 0, 0);
	sem_init(&running, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&running);
	OK(pthread_cancel(t));
	sem_post(&cancelled);
	CHECK(join(t) == PTHREAD_CANCELED);
	CHECK(reached == 1);
	pass();
}
