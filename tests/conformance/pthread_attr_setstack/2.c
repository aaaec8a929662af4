/* A thread created with setstack runs on the given storage: its locals lie
 * inside [stackaddr, stackaddr + stacksize) (POSIX pthread_attr_setstack). */
#include "../conform.h"
static char *lo, *hi;
static void *fn(void *a)
{
	volatile char here = 0;
	return (void *)(intptr_t)((char *)&here >= lo && (char *)&here < hi);
}
int main(void)
{
	pthread_attr_t at;
	pthread_t t;
	size_t sz = 1 << 20;
	lo = aligned_alloc(4096, sz);
	hi = lo + sz;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstack(&at, lo, sz));
	OK(pthread_create(&t, &at, fn, NULL));
	CHECK(join(t) == (void *)1);
	pass();
}
