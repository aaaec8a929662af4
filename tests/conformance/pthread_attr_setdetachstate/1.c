/* setdetachstate then getdetachstate returns the value set, for both valid
 * values (POSIX pthread_attr_getdetachstate). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int s;
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_attr_getdetachstate(&at, &s));
	CHECK(s == PTHREAD_CREATE_DETACHED);
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_JOINABLE));
	OK(pthread_attr_getdetachstate(&at, &s));
	CHECK(s == PTHREAD_CREATE_JOINABLE);
	pass();
}
