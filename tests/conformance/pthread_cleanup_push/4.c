/* Returning from the start routine does not run cleanup handlers (they run
 * only on pthread_exit, cancellation or pop(non-zero)); here they are all
 * popped with 0 first (POSIX pthread_cleanup_push). */
#include "../conform.h"
static int ran;
static void h(void *a) { ran++; }
static void *fn(void *a)
{
	pthread_cleanup_push(h, NULL);
	pthread_cleanup_pop(0);
	return (void *)1;
}
int main(void)
{
	CHECK(join(spawn(fn, NULL)) == (void *)1);
	CHECK(ran == 0);
	pass();
}
