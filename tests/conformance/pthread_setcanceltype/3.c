/* With asynchronous cancelability a thread looping without any cancellation
 * point is cancelled (POSIX pthread_setcanceltype). */
#include "../conform.h"
static sem_t running;
static volatile unsigned long spin;
static void *fn(void *a)
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	sem_post(&running);
	for (;;)
		spin++;
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
