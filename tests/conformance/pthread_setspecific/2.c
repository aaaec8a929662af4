/* Values are per thread: concurrent threads setting the same key each read
 * back their own value (POSIX pthread_setspecific). */
#include "../conform.h"
#define N 8
static pthread_key_t k;
static pthread_barrier_t b;
static void *fn(void *a)
{
	pthread_setspecific(k, a);
	pthread_barrier_wait(&b);
	return (void *)(intptr_t)(pthread_getspecific(k) == a);
}
int main(void)
{
	pthread_t t[N];
	static char v[N];
	OK(pthread_key_create(&k, NULL));
	OK(pthread_barrier_init(&b, NULL, N));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, &v[i]);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)1);
	pass();
}
