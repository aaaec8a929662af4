/* A thread calling pthread_mutex_lock on a mutex another thread holds blocks
 * until that thread unlocks it (POSIX pthread_mutex_lock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile int got, released;
static sem_t trying;
static void *fn(void *a)
{
	sem_post(&trying);
	pthread_mutex_lock(&m);
	got = 1 + released;
	pthread_mutex_unlock(&m);
	return NULL;
}
int main(void)
{
	sem_init(&trying, 0, 0);
	OK(pthread_mutex_lock(&m));
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&trying);
	settle(50);
	CHECK(got == 0);
	released = 1;
	OK(pthread_mutex_unlock(&m));
	join(t);
	CHECK(got == 2);
	pass();
}
