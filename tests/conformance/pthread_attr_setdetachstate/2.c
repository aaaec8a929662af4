/* setdetachstate with a value that is neither JOINABLE nor DETACHED fails
 * with EINVAL (POSIX pthread_attr_setdetachstate). */
#include "../conform.h"
int main(void)
{
	pthread_attr_t at;
	int s;
	OK(pthread_attr_init(&at));
	EXPECT(pthread_attr_setdetachstate(&at, 12345), EINVAL);
	OK(pthread_attr_getdetachstate(&at, &s));
	CHECK(s == PTHREAD_CREATE_JOINABLE);
	pass();
}
