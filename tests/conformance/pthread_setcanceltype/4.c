/* The cancelability state overrides the type: a thread with asynchronous
 * type but cancelability disabled keeps running after a cancel request; the
 * request stays pending and acts once cancelability is enabled again (with
 * the deferred type, at the next cancellation point) (POSIX
 * pthread_setcanceltype, pthread_setcancelstate). */
#include "../conform.h"
static sem_t ready, requested;
static volatile int stage;
static volatile unsigned long spin;
static void *fn(void *a)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	sem_post(&ready);
	while (sem_trywait(&requested) != 0)
		;
	for (unsigned long i = 0; i < 50000000; i++)
		spin++;
	stage = 1;
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, NULL);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_testcancel();
	stage = 2;
	return NULL;
}
int main(void)
{
	sem_init(&ready, 0, 0);
	sem_init(&requested, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&ready);
	OK(pthread_cancel(t));
	sem_post(&requested);
	CHECK(join(t) == PTHREAD_CANCELED);
	CHECK(stage == 1);
	pass();
}
