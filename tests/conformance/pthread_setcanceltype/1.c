/* A new thread starts with cancelability type PTHREAD_CANCEL_DEFERRED, and
 * pthread_setcanceltype returns the previous type (POSIX
 * pthread_setcanceltype). */
#include "../conform.h"
static void *fn(void *a)
{
	int old = -1, old2 = -1;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
	pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old2);
	return (void *)(intptr_t)(old == PTHREAD_CANCEL_DEFERRED && old2 == PTHREAD_CANCEL_ASYNCHRONOUS);
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	pass();
}
