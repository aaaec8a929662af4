/* Handlers already popped do not run at a later cancellation; only those
 * still pushed do (POSIX pthread_cleanup_push / pop). */
#include "../conform.h"
static char order[4];
static int n;
static void h(void *a) { order[n++] = *(char *)a; }
static void *fn(void *a)
{
	pthread_cleanup_push(h, "a");
	pthread_cleanup_push(h, "b");
	pthread_cleanup_pop(0);
	pthread_cleanup_push(h, "c");
	pthread_cancel(pthread_self());
	pthread_testcancel();
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == PTHREAD_CANCELED);
	CHECK(strcmp(order, "ca") == 0);
	pass();
}
