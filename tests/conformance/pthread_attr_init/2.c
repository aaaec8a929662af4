/* The default detachstate of an initialised attributes object is
 * PTHREAD_CREATE_JOINABLE (POSIX pthread_attr_getdetachstate). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int s = -1;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_getdetachstate(&at, &s));
	CHECK(s == PTHREAD_CREATE_JOINABLE);
	pass();
}
