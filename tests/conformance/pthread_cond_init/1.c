/* pthread_cond_init with NULL attributes returns 0, and the condition
 * variable can be signalled and broadcast with no waiters (POSIX
 * pthread_cond_init). */
#include "../conform.h"
int main(void)
{
	pthread_cond_t c;
	OK(pthread_cond_init(&c, NULL));
	OK(pthread_cond_signal(&c));
	OK(pthread_cond_broadcast(&c));
	OK(pthread_cond_destroy(&c));
	pass();
}
