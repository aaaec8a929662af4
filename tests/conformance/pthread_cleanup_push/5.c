/* The argument given to pthread_cleanup_push is the one the handler
 * receives when pthread_exit runs it (POSIX pthread_cleanup_push). */
#include "../conform.h"
static void *got;
static void h(void *a) { got = a; }
static void *fn(void *a)
{
	pthread_cleanup_push(h, a);
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	static int arg;
	join(spawn(fn, &arg));
	CHECK(got == &arg);
	pass();
}
