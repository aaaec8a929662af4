/* pthread_getconcurrency returns 0 before any pthread_setconcurrency, and
 * the value last set afterwards (POSIX pthread_getconcurrency). */
#include "../conform.h"
int main(void)
{
	CHECK(pthread_getconcurrency() == 0);
	OK(pthread_setconcurrency(4));
	CHECK(pthread_getconcurrency() == 4);
	OK(pthread_setconcurrency(0));
	CHECK(pthread_getconcurrency() == 0);
	pass();
}
