/* A condition variable can be destroyed right after a broadcast that woke
 * all its waiters (POSIX pthread_cond_destroy: safe once no thread is
 * blocked on it). */
#include "../conform.h"
#define N 4
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t *c;
static int waiting, go;
static void *fn(void *a)
{
	pthread_mutex_lock(&m);
	waiting++;
	while (!go)
		pthread_cond_wait(c, &m);
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	c = malloc(sizeof *c);
	OK(pthread_cond_init(c, NULL));
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
	OK(pthread_cond_broadcast(c));
	OK(pthread_mutex_unlock(&m));
	for (int i = 0; i < N; i++)
		join(t[i]);
	OK(pthread_cond_destroy(c));
	free(c);
	pass();
}
