/* getstack returns the address and size given to setstack (POSIX
 * pthread_attr_getstack). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t sz = 1 << 20;
	void *mem = aligned_alloc(4096, sz), *a = NULL;
	size_t s = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstack(&at, mem, sz));
	OK(pthread_attr_getstack(&at, &a, &s));
	CHECK(a == mem && s == sz);
	pass();
}
