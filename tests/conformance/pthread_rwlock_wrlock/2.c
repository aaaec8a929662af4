/* The write lock is exclusive among writers: counter updates made under it
 * by several threads are never lost (POSIX pthread_rwlock_wrlock). */
#include "../conform.h"
#define N 4
#define ITERS 10000
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static volatile long count;
static void *fn(void *a)
{
	for (int i = 0; i < ITERS; i++) {
		pthread_rwlock_wrlock(&l);
		long c = count;
		if (i % 1000 == 0)
			sched_yield();
		count = c + 1;
		pthread_rwlock_unlock(&l);
	}
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(count == (long)N * ITERS);
	pass();
}
