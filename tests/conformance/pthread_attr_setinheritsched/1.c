/* getinheritsched returns the value given to setinheritsched, for both
 * valid values (POSIX pthread_attr_getinheritsched). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int v;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setinheritsched(&at, PTHREAD_EXPLICIT_SCHED));
	OK(pthread_attr_getinheritsched(&at, &v));
	CHECK(v == PTHREAD_EXPLICIT_SCHED);
	OK(pthread_attr_setinheritsched(&at, PTHREAD_INHERIT_SCHED));
	OK(pthread_attr_getinheritsched(&at, &v));
	CHECK(v == PTHREAD_INHERIT_SCHED);
	pass();
}
