/* A new thread starts with cancelability state PTHREAD_CANCEL_ENABLE, and
 * pthread_setcancelstate returns the previous state in *oldstate (POSIX
 * pthread_setcancelstate). */
#include "../conform.h"
static void *fn(void *a)
{
	int old = -1, old2 = -1;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old2);
	return (void *)(intptr_t)(old == PTHREAD_CANCEL_ENABLE && old2 == PTHREAD_CANCEL_DISABLE);
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
