/* A blocking cancellation point entered with cancelability disabled is not
 * interrupted by a cancel request: the call completes normally (POSIX
 * pthread_setcancelstate). */
#include "../conform.h"
static sem_t s, entering;
static void *fn(void *a)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	sem_post(&entering);
	int r = sem_wait(&s);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	return (void *)(intptr_t)(r == 0 ? 7 : 8);
}
int main(void)
{
	sem_init(&s, 0, 0);
	sem_init(&entering, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&entering);
	settle(20);
	OK(pthread_cancel(t));
	settle(20);
	sem_post(&s);
	CHECK(join(t) == (void *)7);
	pass();
}
