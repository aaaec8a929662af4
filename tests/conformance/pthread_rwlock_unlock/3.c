/* Writers of the SCHED_FIFO policy blocked on a rwlock acquire it in
 * priority order (POSIX pthread_rwlock_unlock: the scheduling policy
 * decides which writer gets the lock). */
#include "../rt.h"
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static volatile int arrived;
static void *fn(void *a)
{
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	OK(pthread_rwlock_wrlock(&rw));
	rt_note((int)(intptr_t)a);
	OK(pthread_rwlock_unlock(&rw));
	return NULL;
}
int main(void)
{
	static const int prio[3] = { 5, 20, 10 }, want[3] = { 20, 10, 5 };
	pthread_t t[3];
	rt_setup();
	OK(pthread_rwlock_wrlock(&rw));
	for (int i = 0; i < 3; i++) {
		t[i] = rt_spawn(fn, (void *)(intptr_t)prio[i], SCHED_FIFO, prio[i]);
		while (arrived <= i)
			settle(1);
		settle(20);
	}
	OK(pthread_rwlock_unlock(&rw));
	for (int i = 0; i < 3; i++)
		join(t[i]);
	rt_teardown();
	CHECK(rt_logged(0, want, 3));
	pass();
}
