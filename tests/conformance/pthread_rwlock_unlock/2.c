/* When the last reader releases the lock a blocked writer gets it (POSIX
 * pthread_rwlock_unlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static sem_t trying;
static void *fn(void *a)
{
	sem_post(&trying);
	int r = pthread_rwlock_wrlock(&l);
	if (r == 0)
		pthread_rwlock_unlock(&l);
	return (void *)(intptr_t)r;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_rwlock_rdlock(&l));
	OK(pthread_rwlock_rdlock(&l));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	OK(pthread_rwlock_unlock(&l));
	OK(pthread_rwlock_unlock(&l));
	CHECK(join(t) == 0);
	pass();
}
