/* pthread_cancel of a live thread returns 0, and with deferred cancellation
 * the target acts on it at a cancellation point: it ends and its joiner
 * gets PTHREAD_CANCELED (POSIX pthread_cancel). */
#include "../conform.h"
static sem_t running;
static void *fn(void *a)
{
	sem_post(&running);
	for (;;)
		pthread_testcancel();
	return NULL;
}
int main(void)
{
	sem_init(&running, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&running);
	OK(pthread_cancel(t));
	CHECK(join(t) == PTHREAD_CANCELED);
	pass();
}
