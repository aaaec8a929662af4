/* The default contention scope of an initialised attributes object is one of
 * PTHREAD_SCOPE_SYSTEM and PTHREAD_SCOPE_PROCESS (POSIX
 * pthread_attr_getscope). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int sc = -1;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getscope(&at, &sc));
	CHECK(sc == PTHREAD_SCOPE_SYSTEM || sc == PTHREAD_SCOPE_PROCESS);
	pass();
}
