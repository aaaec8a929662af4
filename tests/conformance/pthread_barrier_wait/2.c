/* No thread passes the barrier before the required number of threads have
 * called pthread_barrier_wait (POSIX pthread_barrier_wait). */
#include "../conform.h"
#define N 4
static pthread_barrier_t b;
static volatile int arrived, passed_early;
static void *fn(void *a)
{
	__atomic_fetch_add(&arrived, 1, __ATOMIC_SEQ_CST);
	pthread_barrier_wait(&b);
	if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < N)
		passed_early = 1;
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&b, NULL, N));
	for (int i = 0; i < N - 1; i++)
		t[i] = spawn(fn, NULL);
	settle(50);
	CHECK(!passed_early);
	t[N - 1] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(!passed_early);
	pass();
}
