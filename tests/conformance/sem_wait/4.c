/* Each sem_post releases exactly one of the threads blocked in sem_wait
 * (POSIX sem_post, sem_wait). */
#include "../conform.h"
#define N 6
static sem_t s;
static int passed;
static void *fn(void *a) { sem_wait_ok(&s); __atomic_fetch_add(&passed, 1, __ATOMIC_SEQ_CST); return NULL; }
int main(void)
{
	pthread_t t[N];
	CHECK(sem_init(&s, 0, 0) == 0);
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int k = 1; k <= N; k++) {
		CHECK(sem_post(&s) == 0);
		while (__atomic_load_n(&passed, __ATOMIC_SEQ_CST) < k)
			sched_yield();
		settle(5);
		CHECK(__atomic_load_n(&passed, __ATOMIC_SEQ_CST) == k);
	}
	for (int i = 0; i < N; i++)
		join(t[i]);
	pass();
}
