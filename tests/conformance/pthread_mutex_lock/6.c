/* Unlocking a mutex that others wait for lets one of them acquire it; with
 * many waiters every one eventually does (POSIX pthread_mutex_lock,
 * pthread_mutex_unlock). */
#include "../conform.h"
#define N 16
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t waiting;
static int owners;
static void *fn(void *a)
{
	sem_post(&waiting);
	pthread_mutex_lock(&m);
	owners++;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	pthread_t t[N];
	sem_init(&waiting, 0, 0);
	OK(pthread_mutex_lock(&m));
	for (int i = 0; i < N; i++)
		t[i] = spawn(fn, NULL);
	for (int i = 0; i < N; i++)
		sem_wait_ok(&waiting);
	OK(pthread_mutex_unlock(&m));
	for (int i = 0; i < N; i++)
		join(t[i]);
	CHECK(owners == N);
	pass();
}
