/* pthread_spin_lock gives mutual exclusion between threads: no counter
 * update made under it is lost (POSIX pthread_spin_lock). */
#include "../conform.h"
#define N 4
#define ITERS 20000
static pthread_spinlock_t s;
static volatile long count;
static void *fn(void *a)
{
	for (int i = 0; i < ITERS; i++) {
		pthread_spin_lock(&s);
		count = count + 1;
		pthread_spin_unlock(&s);
	}
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	OK(pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(count == (long)N * ITERS);
	pass();
}
