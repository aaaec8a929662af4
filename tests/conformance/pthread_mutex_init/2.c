/* A mutex statically initialised with PTHREAD_MUTEX_INITIALIZER is usable
 * without pthread_mutex_init and starts unlocked (POSIX pthread_mutex_init). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int main(void)
{
	OK(pthread_mutex_trylock(&m));
	EXPECT(pthread_mutex_trylock(&m), EBUSY);
	OK(pthread_mutex_unlock(&m));
	pass();
}
