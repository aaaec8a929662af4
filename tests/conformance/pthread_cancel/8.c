/* A thread may cancel itself; with deferred type it ends at its next
 * cancellation point (POSIX pthread_cancel). */
#include "../conform.h"
static volatile int after;
static void *fn(void *a)
{
	pthread_cancel(pthread_self());
	after = 1;
	pthread_testcancel();
	after = 2;
	return NULL;
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == PTHREAD_CANCELED);
	CHECK(after == 1);
	pass();
}
