/* pthread_cond_broadcast unblocks every thread blocked on the condition
 * variable (POSIX pthread_cond_broadcast). */
#include "../conform.h"
#define N 8
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int waiting, go, woke;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting++;
	while (!go)
		pthread_cond_wait(&c, &m);
	woke++;
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
	CHECK(woke == N);
	pass();
}
