/* Distinct live threads have distinct IDs (POSIX pthread_self). */
#include "../conform.h"
#define N 8
static pthread_t ids[N];
static pthread_barrier_t b;
static void *fn(void *a) { ids[(intptr_t)a] = pthread_self(); pthread_barrier_wait(&b); return NULL; }
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&b, NULL, N + 1));
	for (intptr_t i = 0; i < N; i++)
		t[i] = spawn(fn, (void *)i);
	pthread_barrier_wait(&b);
	for (int i = 0; i < N; i++) {
		CHECK(!pthread_equal(ids[i], pthread_self()));
		for (int j = 0; j < i; j++)
			CHECK(!pthread_equal(ids[i], ids[j]));
	}
	for (int i = 0; i < N; i++)
		join(t[i]);
	pass();
}
