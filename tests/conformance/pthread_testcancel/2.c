/* pthread_testcancel acts on a pending request: the thread does not return
 * from it (POSIX pthread_testcancel). */
#include "../conform.h"
static sem_t ready, requested;
static volatile int stage;
static void *fn(void *a)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	sem_post(&ready);
	sem_wait_ok(&requested); /* no cancellation while disabled */
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	stage = 1;
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
