/* pthread_mutex_timedlock on an unlocked mutex succeeds even if abstime has
 * already passed (POSIX pthread_mutex_timedlock: no timeout if the mutex can
 * be locked at once). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	struct timespec past = {0, 0};
	OK(pthread_mutex_timedlock(&m, &past));
	OK(pthread_mutex_unlock(&m));
	pass();
}
