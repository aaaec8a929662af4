/* At pthread_exit, cleanup handlers still pushed are popped and run in the
 * reverse order they were pushed (POSIX pthread_exit). */
#include "../conform.h"
static char order[8];
static int n;
static void h(void *a) { order[n++] = *(char *)a; }
static void *fn(void *a)
{
	pthread_cleanup_push(h, "a");
	pthread_cleanup_push(h, "b");
	pthread_cleanup_push(h, "c");
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	join(spawn(fn, NULL));
	CHECK(strcmp(order, "cba") == 0);
	pass();
}
