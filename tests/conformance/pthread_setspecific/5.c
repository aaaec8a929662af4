/* A thread's key values survive its blocking and resuming: values set before
 * a wait are there after it (POSIX pthread_getspecific: value bound to the
 * thread). */
#include "../conform.h"
#define N 8
static pthread_key_t k;
static sem_t go;
static void *fn(void *a)
{
	pthread_setspecific(k, a);
	sem_wait_ok(&go);
	sched_yield();
	return (void *)(intptr_t)(pthread_getspecific(k) == a);
}
int main(void)
{
	pthread_t t[N];
	static char v[N];
	OK(pthread_key_create(&k, NULL));
	sem_init(&go, 0, 0);
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, &v[i]);
	for (int i = 0; i < N; i++)
		sem_post(&go);
	for (int i = 0; i < N; i++)
		CHECK(join(t[i]) == (void *)1);
	pass();
}
