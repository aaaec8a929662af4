/* Destroying a condition variable with no waiters returns 0, and the object
 * can be initialised again (POSIX pthread_cond_destroy). */
#include "../conform.h"
int main(void)
{
	pthread_cond_t c;
	OK(pthread_cond_init(&c, NULL));
	OK(pthread_cond_destroy(&c));
	OK(pthread_cond_init(&c, NULL));
	OK(pthread_cond_signal(&c));
	OK(pthread_cond_destroy(&c));
	pass();
}
