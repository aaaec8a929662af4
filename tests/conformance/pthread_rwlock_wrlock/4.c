/* Readers never observe a writer's update half done: a writer changing two
 * fields under the write lock is seen by readers with both fields equal
 * (POSIX pthread_rwlock_wrlock / rdlock). */
#include "../conform.h"
static pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
static volatile long x, y;
static volatile int stop;
static void *reader(void *a)
{
	int bad = 0;
	while (!stop) {
		pthread_rwlock_rdlock(&l);
		if (x != y)
			bad = 1;
		pthread_rwlock_unlock(&l);
	}
	return (void *)(intptr_t)bad;
}
int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		t[i] = spawn(reader, NULL);
	for (int i = 0; i < 5000; i++) {
		OK(pthread_rwlock_wrlock(&l));
		x = i;
		if (i % 500 == 0)
			sched_yield();
		y = i;
		OK(pthread_rwlock_unlock(&l));
	}
	stop = 1;
	for (int i = 0; i < 3; i++)
		CHECK(join(t[i]) == 0);
	pass();
}
