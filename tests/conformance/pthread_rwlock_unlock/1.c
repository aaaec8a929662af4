/* Releasing the write lock lets all blocked readers in together (POSIX
 * pthread_rwlock_unlock). */
#include "../conform.h"
#define N 3
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t b;
static sem_t trying;
static void *fn(void *a)
{
	sem_post(&trying);
	int r = pthread_rwlock_rdlock(&l);
	pthread_barrier_wait(&b); /* all readers hold the lock together */
	if (r == 0)
		pthread_rwlock_unlock(&l);
	return (void *)(intptr_t)r;
}
int main(void)
{
	pthread_t t[N];
	sem_init(&trying, 0, 0);
	OK(pthread_barrier_init(&b, NULL, N));
	OK(pthread_rwlock_wrlock(&l));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		sem_wait_ok(&trying);
	OK(pthread_rwlock_unlock(&l));
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == 0);
	pass();
}
