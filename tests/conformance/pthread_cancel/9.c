/* Cancellation runs key destructors of the cancelled thread, after its
 * cleanup handlers (POSIX pthread_cancel: handlers, then destructors). */
#include "../conform.h"
static pthread_key_t k;
static char order[4];
static int n;
static void h(void *a) { order[n++] = 'h'; }
static void d(void *v) { order[n++] = 'd'; }
static void *fn(void *a)
{
	pthread_setspecific(k, "x");
	pthread_cleanup_push(h, NULL);
	pthread_cancel(pthread_self());
	pthread_testcancel();
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	OK(pthread_key_create(&k, d));
	CHECK(join(spawn(fn, NULL)) == PTHREAD_CANCELED);
	CHECK(strcmp(order, "hd") == 0);
	pass();
}
