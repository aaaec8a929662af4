/* Concurrent sem_posts from many threads are all counted (POSIX sem_post). */
#include "../conform.h"
#define N 4
#define ITERS 5000
static sem_t s;
static void *fn(void *a)
{
	for (int i = 0; i < ITERS; i++)
		sem_post(&s);
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	int v;
	CHECK(sem_init(&s, 0, 0) == 0);
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(sem_getvalue(&s, &v) == 0 && v == N * ITERS);
	pass();
}
