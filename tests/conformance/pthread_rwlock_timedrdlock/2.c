/* pthread_rwlock_timedrdlock succeeds at once on a free lock even with an
 * expired or invalid abstime (POSIX pthread_rwlock_timedrdlock: abstime need
 * not be checked if the lock can be taken at once). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int main(void)
{
	struct timespec past = {0, 0};
	OK(pthread_rwlock_timedrdlock(&l, &past));
	OK(pthread_rwlock_unlock(&l));
	pass();
}
