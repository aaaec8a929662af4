/* Many detached threads are reclaimed on exit: creating far more detached
 * threads in sequence than could live at once succeeds (POSIX
 * pthread_detach: storage reclaimed when the thread terminates). */
#include "../conform.h"
static sem_t finished;
static void *fn(void *a) { sem_post(&finished); return NULL; }
int main(void)
{
	pthread_attr_t at;
	sem_init(&finished, 0, 0);
	OK(pthread_attr_init(&at));
	OK(pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED));
	OK(pthread_attr_setstacksize(&at, 64 << 20));
	for (int i = 0; i < 2000; i++) {
		pthread_t t;
		OK(pthread_create(&t, &at, fn, NULL));
		sem_wait_ok(&finished);
	}
	pass();
}
