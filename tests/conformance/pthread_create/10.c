/* Many threads can exist at once, each running its own start routine with
 * its own argument (POSIX pthread_create). */
#include "../conform.h"
#define N 100
static pthread_barrier_t all;
static void *fn(void *a) { pthread_barrier_wait(&all); return (void *)((intptr_t)a * 3); }
int main(void)
{
	pthread_t t[N];
	OK(pthread_barrier_init(&all, NULL, N));
	for (intptr_t i = 0; i < N; i++)
		t[i] = spawn(fn, (void *)i);
	for (intptr_t i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)(i * 3));
	pass();
}
