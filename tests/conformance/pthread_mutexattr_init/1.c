/* pthread_mutexattr_init and pthread_mutexattr_destroy return 0, and a
 * destroyed attributes object can be initialised again (POSIX
 * pthread_mutexattr_init). */
#include "../conform.h"
int main(void)
{
	pthread_mutexattr_t a;
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_destroy(&a));
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_destroy(&a));
	pass();
}
