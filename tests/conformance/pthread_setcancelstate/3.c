/* With cancelability disabled a cancel request stays pending: cancellation
 * points do not act on it, and it acts once the state is enabled again
 * (POSIX pthread_setcancelstate). */
#include "../conform.h"
static sem_t requested, disabled;
static volatile int stage;
static void *fn(void *a)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	sem_post(&disabled);
	sem_wait_ok(&requested);
	pthread_testcancel();
	stage = 1;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_testcancel();
	stage = 2;
	return NULL;
}
int main(void)
{
	sem_init(&requested, 0, 0);
	sem_init(&disabled, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&disabled);
	OK(pthread_cancel(t));
	sem_post(&requested);
	CHECK(join(t) == PTHREAD_CANCELED);
	CHECK(stage == 1);
	pass();
}
