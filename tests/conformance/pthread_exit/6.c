/* Thread-local storage of the exiting thread stays usable by its cleanup
 * handlers (they run before the thread's storage goes away) (POSIX
 * pthread_exit: handlers run in the context of the exiting thread). */
#include "../conform.h"
static __thread int mine;
static int seen;
static void h(void *a) { seen = mine; }
static void *fn(void *a)
{
	mine = 77;
	pthread_cleanup_push(h, NULL);
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	join(spawn(fn, NULL));
	CHECK(seen == 77);
	pass();
}
