/* PTHREAD_SCOPE_SYSTEM can be set and is read back by getscope (POSIX
 * pthread_attr_getscope; system scope is what this system supports). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int sc = -1;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setscope(&at, PTHREAD_SCOPE_SYSTEM));
	OK(pthread_attr_getscope(&at, &sc));
	CHECK(sc == PTHREAD_SCOPE_SYSTEM);
	pass();
}
