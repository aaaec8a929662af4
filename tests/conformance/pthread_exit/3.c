/* At pthread_exit, after the cleanup handlers, destructors of keys with a
 * non-NULL value run (POSIX pthread_exit). */
#include "../conform.h"
static char order[8];
static int n;
static pthread_key_t k;
static void h(void *a) { order[n++] = 'h'; }
static void d(void *a) { order[n++] = *(char *)a; }
static void *fn(void *a)
{
	pthread_setspecific(k, "d");
	pthread_cleanup_push(h, NULL);
	pthread_exit(NULL);
	pthread_cleanup_pop(0);
	return NULL;
}
int main(void)
{
	OK(pthread_key_create(&k, d));
	join(spawn(fn, NULL));
	CHECK(strcmp(order, "hd") == 0);
	pass();
}
