/* PTHREAD_SCOPE_PROCESS is either supported (read back) or refused with
 * ENOTSUP, POSIX allowing either (POSIX pthread_attr_setscope). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int sc = -1;
	OK(pthread_attr_init(&at));
	int r = pthread_attr_setscope(&at, PTHREAD_SCOPE_PROCESS);
	if (r == ENOTSUP)
		pass();
	CHECK(r == 0);
	OK(pthread_attr_getscope(&at, &sc));
	CHECK(sc == PTHREAD_SCOPE_PROCESS);
	pass();
}
