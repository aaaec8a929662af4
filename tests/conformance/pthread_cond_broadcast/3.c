/* Threads woken by one broadcast each reacquire the mutex in turn: they run
 * their critical section one at a time (POSIX pthread_cond_broadcast: the
 * woken threads contend for the mutex). */
#include "../conform.h"
#define N 6
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waiting, go, inside, overlap;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting++;
	while (!go)
		pthread_cond_wait(&c, &m);
	if (++inside != 1)
		overlap = 1;
	sched_yield();
	inside--;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (;;) {
		pthread_mutex_lock(&m);
		int w = waiting;
		pthread_mutex_unlock(&m);
		if (w == N)
			break;
		sched_yield();
	}
	OK(pthread_mutex_lock(&m));
	go = 1;
	OK(pthread_cond_broadcast(&c));
	OK(pthread_mutex_unlock(&m));
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(!overlap);
	pass();
}
