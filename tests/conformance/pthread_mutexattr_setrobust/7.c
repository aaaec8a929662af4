/* A waiter blocked on a robust mutex is woken with EOWNERDEAD when the owner
 * terminates (POSIX pthread_mutex_lock, robust mutexes). */
#include "../conform.h"
static pthread_mutex_t m;
static sem_t locked, go, trying;
static void *owner(void *a) { pthread_mutex_lock(&m); sem_post(&locked); sem_wait_ok(&go); return NULL; }
static void *waiter(void *a)
{
	sem_post(&trying);
	int r = pthread_mutex_lock(&m);
	if (r == EOWNERDEAD) {
		pthread_mutex_consistent(&m);
		pthread_mutex_unlock(&m);
	}
	return (void *)(intptr_t)r;
}
int main(void)
{
	pthread_mutexattr_t a;
	sem_init(&locked, 0, 0);
	sem_init(&go, 0, 0);
	sem_init(&trying, 0, 0);
	OK(pthread_mutexattr_init(&a));
	OK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST));
	OK(pthread_mutex_init(&m, &a));
	pthread_t o = spawn(owner, NULL);
	sem_wait_ok(&locked);
	pthread_t w = spawn(waiter, NULL);
	sem_wait_ok(&trying);
	settle(20);
	sem_post(&go);
	join(o);
	CHECK(join(w) == (void *)EOWNERDEAD);
	pass();
}
