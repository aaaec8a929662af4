/* pthread_mutex_trylock on a mutex held by another thread returns EBUSY at
 * once instead of blocking (POSIX pthread_mutex_trylock). */
#include "../conform.h"
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static sem_t locked, go;
static void *fn(void *a) { pthread_mutex_lock(&m); sem_post(&locked); sem_wait_ok(&go); pthread_mutex_unlock(&m); return NULL; }
int main(void)
{
	sem_init(&locked, 0, 0);
	sem_init(&go, 0, 0);
	pthread_t t = spawn(fn, NULL);
	sem_wait_ok(&locked);
	EXPECT(pthread_mutex_trylock(&m), EBUSY);
	sem_post(&go);
	join(t);
	OK(pthread_mutex_trylock(&m));
	pass();
}
