/* Joining a cancelled thread stores PTHREAD_CANCELED in *value_ptr (POSIX
 * pthread_join). */
#include "../conform.h"
static void *fn(void *a)
{
	for (;;)
		pthread_testcancel();
	return NULL;
}
int main(void)
{
	void *v = NULL;
	pthread_t t = spawn(fn, NULL);
	OK(pthread_cancel(t));
	OK(pthread_join(t, &v));
	CHECK(v == PTHREAD_CANCELED);
	pass();
}
