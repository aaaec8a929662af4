/* A statically initialised mutex can be destroyed with
 * pthread_mutex_destroy (POSIX pthread_mutex_init / destroy). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	OK(pthread_mutex_lock(&m));
	OK(pthread_mutex_unlock(&m));
	OK(pthread_mutex_destroy(&m));
	pass();
}
