/* getstacksize returns the size given to setstacksize (POSIX
 * pthread_attr_getstacksize). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t s = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setstacksize(&at, 3 << 20));
	OK(pthread_attr_getstacksize(&at, &s));
	CHECK(s == (size_t)3 << 20);
	pass();
}
