/* pthread_create runs start_routine in a new thread with arg as its only
 * argument and returns 0 (POSIX pthread_create). */
#include "../conform.h"
static int seen;
static void *fn(void *a) { seen = *(int *)a; return NULL; }
int main(void)
{
	pthread_t t;
	int v = 42;
	OK(pthread_create(&t, NULL, fn, &v));
	join(t);
	CHECK(seen == 42);
	pass();
}
