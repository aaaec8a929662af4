/* pthread_equal returns non-zero for two equal thread IDs (POSIX
 * pthread_equal). */
#include "../conform.h"
int main(void)
{
	pthread_t a = pthread_self(), b = pthread_self();
	CHECK(pthread_equal(a, b) != 0);
	pass();
}
