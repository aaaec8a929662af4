/* Concurrent first calls run init_routine exactly once, and no call returns
 * before it has completed (POSIX pthread_once). */
#include "../conform.h"
#define N 16
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_barrier_t b;
static int calls;
static volatile int finished;
static void init(void) { calls++; settle(30); finished = 1; }
static void *fn(void *a)
{
	pthread_barrier_wait(&b);
	if (pthread_once(&once, init) != 0)
		return NULL;
	return (void *)(intptr_t)finished;
}
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&b, NULL, N));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)1);
	CHECK(calls == 1);
	pass();
}
