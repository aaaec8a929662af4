/* pthread_mutex_lock gives mutual exclusion: increments of a shared counter
 * made under the lock by several threads are never lost (POSIX
 * pthread_mutex_lock). */
#include "../conform.h"
#define N 4
#define ITERS 20000
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile long count;
static void *fn(void *a)
{
	for (int i = 0; i < ITERS; i++) {
		pthread_mutex_lock(&m);
		long c = count;
		if (i % 1000 == 0)
			sched_yield();
		count = c + 1;
		pthread_mutex_unlock(&m);
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
