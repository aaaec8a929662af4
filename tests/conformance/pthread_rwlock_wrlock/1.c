/* pthread_rwlock_wrlock blocks while a reader holds the lock, and succeeds
 * after the reader unlocks (POSIX pthread_rwlock_wrlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static sem_t trying;
static volatile int got, released;
static void *fn(void *a)
{
	sem_post(&trying);
	pthread_rwlock_wrlock(&l);
	got = 1 + released;
	pthread_rwlock_unlock(&l);
	return NULL;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_rwlock_rdlock(&l));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(50);
	CHECK(got == 0);
	released = 1;
	OK(pthread_rwlock_unlock(&l));
	join(t);
	CHECK(got == 2);
	pass();
}
