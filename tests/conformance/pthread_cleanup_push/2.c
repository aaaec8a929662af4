/* Cleanup handlers run in reverse order of pushing when the thread is
 * cancelled (POSIX pthread_cleanup_push). */
#include "../conform.h"
static char order[4];
static int n;
static void h(void *a) { order[n++] = *(char *)a; }
static void *fn(void *a)
{
	pthread_cleanup_push(h, "1");
	pthread_cleanup_push(h, "2");
	pthread_cleanup_push(h, "3");
	pthread_cancel(pthread_self());
	pthread_testcancel();
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == PTHREAD_CANCELED);
	CHECK(strcmp(order, "321") == 0);
	pass();
}
