/* getguardsize returns the value set by setguardsize (POSIX
 * pthread_attr_getguardsize: the value set is returned even if the
 * implementation rounds it). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t g = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setguardsize(&at, 3 * 4096 + 1));
	OK(pthread_attr_getguardsize(&at, &g));
	CHECK(g == 3 * 4096 + 1);
	pass();
}
