/* After the required number of threads pass, the barrier is reset to its
 * initial state and can be used again, cycle after cycle (POSIX
 * pthread_barrier_wait). */
#include "../conform.h"
#define N 3
#define CYCLES 200
static pthread_barrier_t b;
static int phase[N];
static void *fn(void *a)
{
	int me = (intptr_t)a, bad = 0;
	for (int c = 0; c < CYCLES; c++) {
		phase[me] = c;
		pthread_barrier_wait(&b);
		for (int j = 0; j < N; j++)
			if (phase[j] != c)
				bad = 1;
		pthread_barrier_wait(&b);
	}
	return (void *)(intptr_t)bad;
}
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&b, NULL, N));
	for (intptr_t i = 0; i < N; i++)
		t[i] = spawn(fn, (void *)i);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == 0);
	pass();
}
