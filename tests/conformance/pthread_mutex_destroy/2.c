/* A mutex can be destroyed right after the last unlock by a thread that
 * another thread was waiting for (POSIX pthread_mutex_destroy: safe to
 * destroy an unlocked mutex no thread references). */
#include "../conform.h"
static pthread_mutex_t *m;
static sem_t locked;
static void *fn(void *a)
{
	pthread_mutex_lock(m);
	sem_post(&locked);
	settle(10);
	pthread_mutex_unlock(m);
	return NULL;
}
int main(void)
{
	sem_init(&locked, 0, 0);
	for (int i = 0; i < 3; i++) {
		m = malloc(sizeof *m);
		OK(pthread_mutex_init(m, NULL));
		pthread_t t = spawn(fn, NULL);
		sem_wait_ok(&locked);
		OK(pthread_mutex_lock(m));
		OK(pthread_mutex_unlock(m));
		OK(pthread_mutex_destroy(m));
		memset(m, 0xff, sizeof *m);
		join(t);
		free(m);
	}
	pass();
}
