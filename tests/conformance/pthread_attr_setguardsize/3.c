/* The default guardsize is non-zero on this system's page-based stacks
 * (POSIX pthread_attr_getguardsize: default is implementation-defined;
 * checked here as at least the page size, as glibc documents). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	size_t g = 0;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getguardsize(&at, &g));
	CHECK(g >= (size_t)sysconf(_SC_PAGESIZE));
	pass();
}
