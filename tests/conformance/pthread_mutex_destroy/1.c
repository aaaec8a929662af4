/* Destroying an initialised unlocked mutex returns 0, and the object can be
 * initialised again and used (POSIX pthread_mutex_destroy). */
#include "../conform.h"
int main(void)
{
	pthread_mutex_t m;
	OK(pthread_mutex_init(&m, NULL));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_destroy(&m));
	OK(pthread_mutex_init(&m, NULL));
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_destroy(&m));
	pass();
}
