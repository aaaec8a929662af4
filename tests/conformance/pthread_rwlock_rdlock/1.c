/* Several threads can hold the read lock at the same time (POSIX
 * pthread_rwlock_rdlock). */
#include "../conform.h"
#define N 4
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t b;
static void *fn(void *a)
{
	int r = pthread_rwlock_rdlock(&l);
	pthread_barrier_wait(&b); /* every reader holds it here at once */
	if (r == 0)
		pthread_rwlock_unlock(&l);
	return (void *)(intptr_t)r;
}
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&b, NULL, N));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == 0);
	pass();
}
