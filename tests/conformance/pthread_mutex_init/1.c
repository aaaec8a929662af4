/* pthread_mutex_init with NULL attributes returns 0 and gives an unlocked
 * mutex (POSIX pthread_mutex_init). */
#include "../conform.h"
int main(void)
{
	pthread_mutex_t m;
	OK(pthread_mutex_init(&m, NULL));
	OK(pthread_mutex_trylock(&m));
	OK(pthread_mutex_unlock(&m));
	pass();
}
