/* sched_yield returns 0, and threads that only yield to each other all make
 * progress (POSIX sched_yield). */
#include "../conform.h"
#define N 4
static volatile int turn;
static void *fn(void *a)
{
	int me = (intptr_t)a;
	for (int round = 0; round < 50; round++) {
		while (__atomic_load_n(&turn, __ATOMIC_SEQ_CST) % N != me)
			if (sched_yield() != 0)
				return NULL;
		__atomic_fetch_add(&turn, 1, __ATOMIC_SEQ_CST);
	}
	return (void *)1;
}
int main(void)
{
	pthread_t t[N];
	for (intptr_t i = 0; i < N; i++)
		t[i] = spawn(fn, (void *)i);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)1);
	CHECK(turn == N * 50);
	pass();
}
