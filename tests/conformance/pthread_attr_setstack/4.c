/* setstack changes the stacksize attribute too: getstacksize then reports
 * the size given to setstack (POSIX pthread_attr_setstack: stacksize is one
 * of the two attributes it sets). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t sz = 256 << 10, s = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstack(&at, aligned_alloc(4096, sz), sz));
	OK(pthread_attr_getstacksize(&at, &s));
	CHECK(s == sz);
	pass();
}
